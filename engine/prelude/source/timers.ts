/**
 * Prelude fragment: `setTimeout` and `clearTimeout`, up to 30 s per timer (spec: "Inside the
 * sandbox"). A timer waits in real time on the driver's clock (`host.setTimer(id, ms)`, which
 * calls `fire(id)` back) and, when it fires, moves the logical clock to its due time. Id 0 is the
 * idle check's (run.ts). A longer delay is a RangeError at once, not a
 * silent clamp; code strings are refused (they would be eval). At most 10,000 timers wait at
 * once. Timers still waiting when the code's promise settles never fire.
 */
export const TIMERS = String.raw`
const TIMER_MAX_MS = 30000;
const TIMERS_MAX = 10000;
const timers = new Map();
let timerCount = 0;

function setTimeout(callback, delay, ...args) {
  if (typeof callback !== 'function') {
    throw new TypeError('setTimeout takes a function; code strings are not evaluated in the sandbox');
  }
  let ms = Number(delay);
  if (!(ms > 0)) ms = 0;
  if (ms > TIMER_MAX_MS) {
    throw new RangeError('setTimeout(' + ms + ') is over the sandbox limit of 30,000 ms for one timer');
  }
  if (timers.size >= TIMERS_MAX) throw new RangeError('too many timers waiting (10,000)');
  const id = ++timerCount;
  timers.set(id, { callback, args, due: elapsed + ms });
  host.setTimer(id, ms);
  return id;
}

function clearTimeout(id) {
  const timer = timers.get(id);
  if (!timer) return;
  timers.delete(id);
  host.clearTimer(id);
  checkIdle();
}

/** The driver's timer id went off. */
function fire(id) {
  if (id === 0) return idleCheck();
  const timer = timers.get(id);
  if (!timer) return;
  timers.delete(id);
  if (timer.due > elapsed) elapsed = timer.due;
  try {
    timer.callback(...timer.args);
  } catch (error) {
    writeLog('error', 'Uncaught (in a timer) ' + describeError(error).message);
  }
  checkIdle();
}
`;
