/**
 * A run's timeline as data: every call of its journal and every time it asked a person, on one
 * time axis from the run's start to its end (or to now while it goes on), each as an offset and a
 * width in percent of that axis. Pure: the run, its journal, its asks and `now` are passed in;
 * timeline.tsx draws it.
 *
 * Replayed: the journal records a call once, when it first runs; every later attempt of the run
 * hands back the journaled outcome instead of calling again (nothing runs twice). So a settled
 * call was replayed when the run had an attempt after the one it ran in. An attempt that asks a
 * person ends there, so the call's attempt is one more than the asks made before it started.
 */
import type { Decision, JournalEntry, PendingInput, Run } from '../engine/contracts/runs.ts';

/** The statuses after which nothing more happens to a run. */
const ENDED: ReadonlySet<Run['status']> = new Set(['completed', 'failed', 'cancelled', 'expired']);

/** The narrowest bar drawn, in percent, so an instant still shows. */
const MIN_WIDTH = 0.5;

/** Where a bar sits on the axis, in percent. */
export interface Bar {
  offset: number;
  width: number;
}

export interface CallRow {
  kind: 'call';
  entry: JournalEntry;
  start: number;
  /** When it settled, or undefined while it is in doubt (started, never settled). */
  end: number | undefined;
  replayed: boolean;
  bar: Bar;
}

export interface AskRow {
  kind: 'ask';
  input: PendingInput;
  decision: Decision | undefined;
  start: number;
  /** When it was decided, or until when it waited (now, or its expiry) when it never was. */
  end: number;
  /** Undecided and still waiting for a person. */
  waiting: boolean;
  bar: Bar;
}

export type TimelineRow = CallRow | AskRow;

export interface Timeline {
  start: number;
  end: number;
  rows: TimelineRow[];
  /** All calls' durations added up (concurrent calls count each), and all waits for a person. */
  callsMs: number;
  waitedMs: number;
}

export interface TimelineInput {
  run: Run;
  journal: JournalEntry[];
  asks: Array<{ input: PendingInput; decision?: Decision }>;
  now: number;
}

/** The run's timeline: its calls and asks in the order they started, placed on one axis. */
export function timelineOf({ run, journal, asks, now }: TimelineInput): Timeline {
  const ended = ENDED.has(run.status);
  const moments = [
    run.updatedAt,
    ...journal.flatMap((e) => [e.startedAt, e.settledAt ?? e.startedAt]),
    ...asks.flatMap(({ input, decision }) => [input.createdAt, decision?.at ?? input.createdAt]),
  ];
  const start = run.createdAt;
  const end = Math.max(start, ended ? Math.max(...moments) : Math.max(now, ...moments));
  const place = (from: number, to: number): Bar => placed(from, to, start, end);
  const askedAt = [...new Set(asks.map(({ input }) => input.createdAt))].sort((a, b) => a - b);

  const calls: CallRow[] = journal.map((entry) => {
    const attempt = 1 + askedAt.filter((at) => at < entry.startedAt).length;
    return {
      kind: 'call',
      entry,
      start: entry.startedAt,
      end: entry.settledAt,
      replayed: entry.outcome !== undefined && run.attempts > attempt,
      bar: place(entry.startedAt, entry.settledAt ?? end),
    };
  });
  const asked: AskRow[] = asks.map(({ input, decision }) => {
    const waiting = decision === undefined && run.status === 'awaiting_input' && input.expiresAt > now;
    const until = decision?.at ?? Math.min(input.expiresAt, end);
    return {
      kind: 'ask',
      input,
      decision,
      start: input.createdAt,
      end: until,
      waiting,
      bar: place(input.createdAt, until),
    };
  });
  const rows: TimelineRow[] = [...calls, ...asked].sort((a, b) => a.start - b.start);
  return {
    start,
    end,
    rows,
    callsMs: calls.reduce((sum, row) => sum + (row.end === undefined ? 0 : row.end - row.start), 0),
    waitedMs: asked.reduce((sum, row) => sum + (row.end - row.start), 0),
  };
}

/** `from`…`to` in percent of the axis `start`…`end`, at least MIN_WIDTH wide, never past 100. */
function placed(from: number, to: number, start: number, end: number): Bar {
  const length = end - start;
  if (length <= 0) return { offset: 0, width: 100 };
  const percent = (ms: number) => Math.min(100, Math.max(0, ((ms - start) / length) * 100));
  const width = Math.max(MIN_WIDTH, percent(Math.max(from, to)) - percent(from));
  const offset = Math.min(percent(from), 100 - width);
  return { offset: round(offset), width: round(width) };
}

const round = (n: number) => Math.round(n * 100) / 100;
