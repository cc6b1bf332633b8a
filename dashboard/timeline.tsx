/**
 * A run's journal drawn as a timeline (timeline-model.ts): one row per call and per time the run
 * asked a person, in the order they started, each a sentence (when, how long, how it ended,
 * replayed or not, who decided what through which channel) above a bar on the run's time axis.
 * The bars are CSS boxes with an offset and a width in percent: no script, no image, so a person
 * sees at a glance where the time went (calls) and where the run waited (asks, hatched). The bars
 * repeat what the sentences say, so they are hidden from screen readers.
 */
import type { JournalEntry } from '../engine/contracts/runs.ts';
import { labelOf } from './approval-page.tsx';
import { line } from './shown.ts';
import type { AskRow, Bar, CallRow, Timeline } from './timeline-model.ts';
import { span, utc } from './when.ts';

export const TIMELINE_STYLE = `
:root { --call: #1f5fa8; --fail: #b3261e; --ask: #8a5a00; --track: #ececec; }
@media (prefers-color-scheme: dark) { :root { --call: #7cb4f0; --fail: #ff8a80; --ask: #f0c060;
  --track: #2a2a2a; } }
ol.timeline { list-style: none; padding: 0; margin: 0 0 1rem; }
ol.timeline li { padding: .4rem 0; border-bottom: 1px solid var(--line); }
.tl-text { overflow-wrap: anywhere; }
.tl-track { position: relative; height: .9rem; margin-top: .3rem; background: var(--track);
  border-radius: .2rem; }
.tl-bar { display: block; height: 100%; border-radius: .2rem; background: var(--call); }
.tl-bar.fail { background: var(--fail); }
.tl-bar.doubt { background: repeating-linear-gradient(90deg, var(--fail) 0 4px, transparent 4px 8px); }
.tl-bar.ask { background: repeating-linear-gradient(45deg, var(--ask) 0 4px, transparent 4px 7px);
  outline: 1px solid var(--ask); }
.tl-axis { display: flex; justify-content: space-between; color: var(--muted); font-size: .9rem; }
.tl-key { color: var(--muted); font-size: .9rem; }
.tl-key span { display: inline-block; width: 1.5rem; height: .7rem; vertical-align: middle;
  margin: 0 .3rem 0 .6rem; border-radius: .2rem; }
`;

export function TimelineView(props: { timeline: Timeline }) {
  const { timeline } = props;
  const total = timeline.end - timeline.start;
  return (
    <section aria-labelledby="timeline">
      <h2 id="timeline">Timeline</h2>
      {timeline.rows.length === 0 ? (
        <p>The run made no tool call and asked no one.</p>
      ) : (
        <>
          <p>
            {span(total)} from start to {timeline.end === timeline.start ? 'end' : 'the last event'}: calls
            took {span(timeline.callsMs)} in all, waiting for a person {span(timeline.waitedMs)}.
          </p>
          <p class="tl-key" aria-hidden="true">
            Key:
            <span class="tl-bar" />
            call
            <span class="tl-bar fail" />
            failed
            <span class="tl-bar doubt" />
            in doubt
            <span class="tl-bar ask" />
            waiting for a person
          </p>
          <ol class="timeline">
            {timeline.rows.map((row) =>
              row.kind === 'call' ? (
                <CallItem row={row} start={timeline.start} />
              ) : (
                <AskItem row={row} start={timeline.start} />
              ),
            )}
          </ol>
          <p class="tl-axis" aria-hidden="true">
            <span>{utc(timeline.start)}</span>
            <span>+{span(total)}</span>
          </p>
        </>
      )}
    </section>
  );
}

function CallItem(props: { row: CallRow; start: number }) {
  const { row } = props;
  const { entry } = row;
  const kind = entry.outcome === undefined ? 'doubt' : entry.outcome.ok ? '' : 'fail';
  return (
    <li>
      <div class="tl-text">
        <strong>{line(entry.address)}</strong>
        {entry.connection === null ? '' : ` (connection ${line(entry.connection)})`}: call {entry.seq}, at +
        {span(row.start - props.start)},{' '}
        {row.end === undefined ? 'no outcome' : `took ${span(row.end - row.start)}`}, {outcomeOf(entry)}
        {row.replayed ? ', replayed on a later attempt' : ''}
      </div>
      <Track bar={row.bar} kind={kind} />
    </li>
  );
}

function AskItem(props: { row: AskRow; start: number }) {
  const { row } = props;
  const { input, decision } = row;
  const answer = decision
    ? `${labelOf(decision.choice)} by ${line(decision.who)} through the ${decision.channel}`
    : row.waiting
      ? 'still waiting for a person'
      : 'never decided';
  return (
    <li>
      <div class="tl-text">
        Asked a person about <strong>{line(input.address)}</strong>
        {input.connection === null ? '' : ` (connection ${line(input.connection)})`}: at +
        {span(row.start - props.start)}, {decision ? 'decided after' : 'waited'} {span(row.end - row.start)}:{' '}
        {answer}
      </div>
      <Track bar={row.bar} kind="ask" />
    </li>
  );
}

function Track(props: { bar: Bar; kind: string }) {
  return (
    <div class="tl-track" aria-hidden="true">
      <span
        class={props.kind === '' ? 'tl-bar' : `tl-bar ${props.kind}`}
        style={`margin-left: ${props.bar.offset}%; width: ${props.bar.width}%`}
      />
    </div>
  );
}

/** How a call ended: ok, its error code, or in doubt (started, never settled: never sent again). */
function outcomeOf(entry: JournalEntry): string {
  if (entry.outcome === undefined) return 'in doubt (it started and never settled; it is never sent again)';
  return entry.outcome.ok ? 'ok' : `error ${line(entry.outcome.error.code)}`;
}
