/**
 * Prelude fragment: running the model's function and reporting how it ended, once, through
 * `host.done(text)`: one JSON text the host parses (engine/sandbox/guest-report.ts), `completed`
 * with the result's JSON, or `failed` with the error. The result is serialized here, inside the
 * guest's own limits, and refused past `resultBytes`; the host checks the size again.
 *
 * The report waits for the calls in flight to settle (their outcomes are the host's to record);
 * calls still queued never start.
 *
 * A deadlock, the code awaiting something nothing will settle, is found here: when no call is
 * queued or in flight and no timer waits, a host timer of 0 ms (id 0, which fires only after
 * every pending job) looks again, and if the code is still waiting the attempt fails at once
 * instead of sitting out its wall time. After the host ended an attempt this is also how the
 * halted guest reports, so a driver learns the guest is idle.
 */
export const RUN = String.raw`
const MESSAGE_CHARS = 2000;
const STACK_CHARS = 4000;
let finished = false;
let idleCheckPending = false;
let pendingReport = null;

function describeError(error) {
  try {
    if (error instanceof ToolError) {
      return { name: 'ToolError', message: safeString(error.message).slice(0, MESSAGE_CHARS), code: error.code,
        address: error.address, status: error.status, hint: error.hint, retryable: error.retryable,
        stack: safeString(error.stack).slice(0, STACK_CHARS) };
    }
    if (error instanceof Error) {
      return { name: safeString(error.name).slice(0, 100), message: safeString(error.message).slice(0, MESSAGE_CHARS),
        stack: safeString(error.stack).slice(0, STACK_CHARS) };
    }
    return { name: 'Error', message: 'Uncaught ' + safeString(error).slice(0, MESSAGE_CHARS) };
  } catch (failure) {
    return { name: 'Error', message: 'Uncaught error that could not be read' };
  }
}

function finish(outcome) {
  if (finished) return;
  finished = true;
  outcome.logsDropped = logsDropped;
  pendingReport = stringify(outcome);
  reportWhenSettled();
}

/** The report leaves once no call is in flight: calls still out settle first; queued ones never start. */
function reportWhenSettled() {
  if (pendingReport === null || inflight > 0) return;
  const text = pendingReport;
  pendingReport = null;
  host.done(text);
}

function completed(value) {
  if (value === undefined) return finish({ status: 'completed' });
  let json;
  try {
    json = stringify(value);
  } catch (error) {
    return finish({ status: 'failed', error: { code: 'result_not_json',
      message: 'The returned value is not JSON data: ' + describeError(error).message,
      hint: 'Return plain data: objects, arrays, strings, numbers, booleans and null.' } });
  }
  if (json === undefined) {
    return finish({ status: 'failed', error: { code: 'result_not_json',
      message: 'The code returned a ' + typeof value + ', which is not JSON data.',
      hint: 'Return plain data; call a function rather than returning it.' } });
  }
  if (json.length > RESULT_BYTES || utf8Length(json) > RESULT_BYTES) {
    return finish({ status: 'failed', limit: 'result', error: { code: 'result_too_large',
      message: 'The result is over ' + RESULT_BYTES + ' bytes of JSON, the most one attempt returns.',
      hint: 'Return only what you need: pick fields, slice arrays, or summarize.' } });
  }
  finish({ status: 'completed', resultJson: json });
}

function failed(error) {
  finish({ status: 'failed', error: { code: 'uncaught', ...describeError(error) } });
}

const busy = () => inflight > 0 || queued() > 0 || timers.size > 0;

function checkIdle() {
  if (finished || idleCheckPending || busy()) return;
  idleCheckPending = true;
  host.setTimer(0, 0);
}

function idleCheck() {
  idleCheckPending = false;
  if (finished || busy()) return;
  finish({ status: 'failed', error: { code: 'deadlock',
    message: 'The code is waiting for a promise that nothing will settle: no tool call is in flight and no timer is waiting.',
    hint: 'Look for a promise whose resolve is never called, or an await on something the code never starts.' } });
}

/** Runs the model's async function; how it ends goes to host.done, once. */
function run(main) {
  let running;
  try { running = main(); } catch (error) { running = NativePromise.reject(error); }
  then(NativePromise.resolve(running), completed, failed);
  checkIdle();
}
`;
