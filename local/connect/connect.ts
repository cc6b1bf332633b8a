/**
 * `hub connect` and `hub disconnect`: put the one `capabilities` entry into each harness found
 * (or named), or take it out again. Each harness is read once and planned on its own, so one
 * file that does not parse, cannot be read or changed under us is reported while the others go
 * on. Before the first write, one snapshot holds every file about to change (snapshots.ts);
 * then each is replaced only if it still holds the bytes that were read (safe-write.ts).
 *
 * An existing `capabilities` entry that differs from this hub's is replaced only when the
 * person agrees (`decideReplace`: `--yes`, or a prompt), and the outcome says what differs.
 *
 * `connect --replace` also removes, in the same edit of the same file, the direct entries whose
 * server the hub already has as a source (hub-has.ts), so the agent sees each tool once; the
 * snapshot records them exactly (`turnedOff`). `disconnect` puts back every entry recorded so
 * since the last disconnect (turned-off.ts), except one whose name the person has used again
 * meanwhile: theirs stays, and the outcome says so.
 */
import { existsSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type { Source } from '../../engine/contracts/sources.ts';
import { isHubError } from '../../engine/errors.ts';
import type { StdioEntry } from '../setup-snippets.ts';
import type { ConfigDocument } from './config-document.ts';
import { openJsonConfig } from './config-json.ts';
import { openTomlConfig } from './config-toml.ts';
import {
  ENTRY_NAME,
  HARNESS_IDS,
  type Harness,
  type HarnessId,
  type HarnessPlace,
  harness,
} from './harnesses.ts';
import { entriesTheHubHas, sourceKeys } from './hub-has.ts';
import { type ReadConfig, readConfig, replaceIfUnchanged } from './safe-write.ts';
import { markUnwritten, type TurnedOffEntry, takeSnapshot } from './snapshots.ts';
import { recordable, toPutBack } from './turned-off.ts';

export type OutcomeStatus =
  | 'connected' // the entry was written
  | 'unchanged' // the entry was already this hub's (connect) or absent (disconnect)
  | 'kept' // a different `capabilities` entry, left alone
  | 'disconnected' // the entry was removed
  | 'not-found' // the harness is not on this machine
  | 'failed'; // the file could not be read, parsed or written: nothing was written to it

export interface HarnessOutcome {
  harness: HarnessId;
  title: string;
  file: string;
  status: OutcomeStatus;
  /** What a person should know: what differs, what failed and what to do. */
  message?: string;
  /** connect --replace: the entries it turned off (removed) because the hub has their server. */
  turnedOff?: string[];
  /** disconnect: the entries --replace had turned off that it put back. */
  putBack?: string[];
}

export interface EditRequest {
  place: HarnessPlace;
  /** The harnesses named with --client; all of them, where found, when absent. */
  clients?: readonly HarnessId[] | undefined;
  /** `<home>/hub`, where snapshots go. */
  hubDir: string;
  now: Date;
  /** Tests only: runs after a harness file was read, before it is replaced. */
  beforeWrite?: (harness: Harness) => void;
}

export interface EditReport {
  outcomes: HarnessOutcome[];
  /** The snapshot taken before writing, when anything was written. */
  snapshot?: string;
}

export interface ConnectRequest extends EditRequest {
  stdio: StdioEntry;
  /** Whether to replace a `capabilities` entry that differs; `differences` says how. */
  decideReplace(harness: Harness, differences: string): Promise<boolean>;
  /** --replace: the hub's sources; entries of the same servers are turned off. */
  replace?: readonly Source[] | undefined;
}

interface Planned {
  harness: Harness;
  read: ReadConfig;
  next: string;
  status: OutcomeStatus;
  message?: string;
  /** connect --replace: the entries removed, exactly as they were (for the snapshot). */
  turnedOff?: TurnedOffEntry[];
  putBack?: string[];
}

/** `text` (of `h`'s file) opened on the entry `name`. */
function open(h: Harness, text: string, name = ENTRY_NAME): ConfigDocument {
  return h.format === 'toml'
    ? openTomlConfig(h.file, text, h.serversKey, name)
    : openJsonConfig(h.file, text, h.format === 'jsonc', h.serversKey, name);
}

const textOf = (read: ReadConfig): string => read.bytes?.toString('utf8') ?? '';

const outcome = (h: Harness, status: OutcomeStatus, message?: string): HarnessOutcome => ({
  harness: h.id,
  title: h.title,
  file: h.file,
  status,
  ...(message === undefined ? {} : { message }),
});

/** The outcome of a plan written (or not needing to be), with the entries it turned off or put back. */
const outcomeOf = (plan: Planned): HarnessOutcome => ({
  ...outcome(plan.harness, plan.status, plan.message),
  ...(plan.turnedOff?.length ? { turnedOff: plan.turnedOff.map((entry) => entry.name) } : {}),
  ...(plan.putBack?.length ? { putBack: plan.putBack } : {}),
});

/** A harness that could not be done: its own outcome, so the others go on. */
const failure = (h: Harness, error: unknown): HarnessOutcome =>
  outcome(
    h,
    'failed',
    isHubError(error)
      ? error.message
      : `could not edit ${h.file} (${error instanceof Error ? error.message : String(error)}); nothing was written to it`,
  );

/** What differs between the entry in the file and this hub's, field by field. */
export function differences(found: unknown, wanted: Record<string, unknown>): string {
  const existing = typeof found === 'object' && found !== null ? (found as Record<string, unknown>) : {};
  const keys = [...new Set([...Object.keys(existing), ...Object.keys(wanted)])];
  return keys
    .filter((key) => !isDeepStrictEqual(existing[key], wanted[key]))
    .map(
      (key) =>
        `${key}: ${JSON.stringify(existing[key]) ?? '(none)'} → ${JSON.stringify(wanted[key]) ?? '(none)'}`,
    )
    .join('; ');
}

/**
 * The harnesses to consider, named or all: connect finds one by its file or its folder (and then
 * creates the file), disconnect only by its file.
 */
function targets(request: EditRequest, creating: boolean): { present: Harness[]; missing: HarnessOutcome[] } {
  const named = request.clients !== undefined;
  const all = (request.clients ?? HARNESS_IDS).map((id) => harness(id, request.place));
  const present = all.filter((h) => existsSync(h.file) || (creating && existsSync(h.folder)));
  const missing = named
    ? all
        .filter((h) => !present.includes(h))
        .map((h) =>
          outcome(
            h,
            'not-found',
            creating
              ? `neither ${h.file} nor ${h.folder} exists; install or start ${h.title} once, then connect again`
              : `${h.file} does not exist; nothing to disconnect`,
          ),
        )
    : [];
  return { present, missing };
}

/** Snapshots every planned file, then replaces each one that still holds what was read. */
function write(request: EditRequest, takenBy: string, plans: Planned[], report: EditReport): void {
  const writes = plans.filter((plan) => plan.status === 'connected' || plan.status === 'disconnected');
  if (writes.length > 0) {
    report.snapshot = takeSnapshot(
      request.hubDir,
      request.now,
      takenBy,
      writes.map((plan) => ({
        harness: plan.harness.id,
        read: plan.read,
        turnedOff: plan.turnedOff,
        next: Buffer.from(plan.next, 'utf8'),
      })),
    );
  }
  const unwritten: string[] = [];
  for (const plan of plans) {
    if (plan.status === 'connected' || plan.status === 'disconnected') {
      try {
        request.beforeWrite?.(plan.harness);
        replaceIfUnchanged(plan.read, Buffer.from(plan.next, 'utf8'));
      } catch (error) {
        report.outcomes.push(failure(plan.harness, error));
        unwritten.push(plan.read.path);
        continue;
      }
    }
    report.outcomes.push(outcomeOf(plan));
  }
  // What the snapshot recorded for a file not written did not happen (a failed disconnect put nothing back).
  if (report.snapshot) markUnwritten(report.snapshot, unwritten);
}

/**
 * The entries of `h`'s file (`text`) whose server the hub has, each as it is in the file. One
 * whose value JSON would not keep exactly (a TOML date) stays, and `skipped` names it.
 */
function entriesToTurnOff(
  request: ConnectRequest,
  h: Harness,
  read: ReadConfig,
  keys: ReadonlySet<string>,
): { entries: TurnedOffEntry[]; skipped: string[] } {
  const entries: TurnedOffEntry[] = [];
  const skipped: string[] = [];
  for (const name of entriesTheHubHas(h, request.place, read, keys)) {
    const value = open(h, textOf(read), name).entry;
    if (recordable(value)) entries.push({ name, value });
    else skipped.push(name);
  }
  return { entries, skipped };
}

/** Writes this hub's entry into each harness found or named. The CLI was checked before. */
export async function connectHarnesses(request: ConnectRequest): Promise<EditReport> {
  const { present, missing } = targets(request, true);
  const report: EditReport = { outcomes: [...missing] };
  const plans: Planned[] = [];
  const keys = request.replace === undefined ? undefined : sourceKeys(request.replace);
  for (const h of present) {
    try {
      const read = readConfig(h.file);
      const document = open(h, textOf(read));
      const wanted = h.entry(request.stdio);
      const { entries, skipped } =
        keys === undefined ? { entries: [], skipped: [] } : entriesToTurnOff(request, h, read, keys);
      const left =
        skipped.length === 0
          ? undefined
          : `left ${skipped.map((name) => `"${name}"`).join(', ')} on: a value in it could not be recorded exactly to put back; remove it by hand if you like`;
      const same = isDeepStrictEqual(document.entry, wanted);
      if (same && entries.length === 0) {
        plans.push({ harness: h, read, next: '', status: 'unchanged', ...(left ? { message: left } : {}) });
        continue;
      }
      if (!same && document.entry !== undefined) {
        const diff = differences(document.entry, wanted);
        if (!(await request.decideReplace(h, diff))) {
          const message = `it already has a different "${ENTRY_NAME}" entry (${diff}); left as it is. Pass --yes to replace it.`;
          plans.push({ harness: h, read, next: '', status: 'kept', message });
          continue;
        }
      }
      let next = same ? textOf(read) : document.withEntry(wanted);
      for (const entry of entries) next = open(h, next, entry.name).withoutEntry();
      plans.push({
        harness: h,
        read,
        next,
        status: 'connected',
        turnedOff: entries,
        ...(left ? { message: left } : {}),
      });
    } catch (error) {
      report.outcomes.push(failure(h, error));
    }
  }
  write(request, 'connect', plans, report);
  return report;
}

/**
 * Removes the `capabilities` entry from each harness that has one, and puts back the entries
 * `connect --replace` turned off there (before removing it, so the servers table stays where it is).
 */
export function disconnectHarnesses(request: EditRequest): EditReport {
  const { present, missing } = targets(request, false);
  const report: EditReport = { outcomes: [...missing] };
  const plans: Planned[] = [];
  for (const h of present) {
    try {
      const read = readConfig(h.file);
      const text = textOf(read);
      const entries = toPutBack(request.hubDir, h.file);
      const theirs = entries.filter(({ name, value }) => {
        const now = open(h, text, name).entry;
        return now !== undefined && !isDeepStrictEqual(now, value);
      });
      const putBack = entries.filter(({ name }) => open(h, text, name).entry === undefined);
      const message =
        theirs.length === 0
          ? undefined
          : `${theirs.map(({ name }) => `"${name}"`).join(', ')} turned off by connect --replace ${theirs.length === 1 ? 'is' : 'are'} in the file again, set by you; left as ${theirs.length === 1 ? 'it is' : 'they are'}`;
      const withMessage = message === undefined ? {} : { message };
      if (open(h, text).entry === undefined && putBack.length === 0) {
        plans.push({ harness: h, read, next: '', status: 'unchanged', ...withMessage });
        continue;
      }
      let next = text;
      for (const { name, value } of putBack) next = open(h, next, name).withEntry(value);
      next = open(h, next).withoutEntry();
      plans.push({
        harness: h,
        read,
        next,
        status: 'disconnected',
        putBack: putBack.map(({ name }) => name),
        ...withMessage,
      });
    } catch (error) {
      report.outcomes.push(failure(h, error));
    }
  }
  write(request, 'disconnect', plans, report);
  return report;
}
