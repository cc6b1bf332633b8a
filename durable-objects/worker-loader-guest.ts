/**
 * The modules of a guest's dynamic Worker (WorkerLoaderSandbox). Four modules, so the model's
 * code sees nothing of ours by name:
 *
 * - `guest.js`: the model's code alone, as the body of the default-exported async function (its
 *   first line is line 2 of the file, as in QuickJS), importing only its compute check under a
 *   name drawn at random per attempt, which the code cannot know when it is written;
 * - `prelude.js`: the prelude (engine/prelude), default-exported;
 * - `fuel.js`: the compute check the code calls at every loop and function entry;
 * - `main.js`: the entrypoint. It captures the native timers before the prelude removes them,
 *   hands the prelude its host primitives (calls and lookups go out through `env.BRIDGE`, the
 *   bridge WorkerEntrypoint; nothing else is in `env`) and answers with the guest's report.
 *   Console lines ride along with each call, and the rest with the report.
 */

import { PRELUDE_SOURCE } from '../engine/prelude/index.ts';
import { GUEST_FILE } from '../engine/sandbox/guest-report.ts';

/** What `main.js`'s `run` answers over RPC. */
export interface GuestRun {
  report: string;
  logs: string[];
  /** The compute checks ran out. */
  exhausted: boolean;
}

/** The entrypoint the host calls: `run(configText, checks)`. */
export interface GuestEntrypoint {
  run(configText: string, checks: number): Promise<GuestRun>;
}

const MAIN = `import { WorkerEntrypoint } from 'cloudflare:workers';
import prelude from './prelude.js';
import main from './${GUEST_FILE}';
import { allow, exhausted } from './fuel.js';

const nativeSetTimeout = setTimeout;
const nativeClearTimeout = clearTimeout;
const ENDED = '{"ended":true}';

export default class Guest extends WorkerEntrypoint {
  run(configText, checks) {
    const bridge = this.env.BRIDGE;
    allow(checks);
    const logs = [];
    const timers = new Map();
    return new Promise((resolve) => {
      let guest;
      const answer = (id) => (text) => guest.deliver(id, typeof text === 'string' ? text : ENDED);
      const lost = (id) => () => guest.deliver(id, ENDED);
      const host = {
        call(id, address, args, connection) {
          bridge.call(address, args, connection, logs.splice(0)).then(answer(id), lost(id));
        },
        lookup(id, request) { bridge.lookup(request).then(answer(id), lost(id)); },
        log(line) { logs.push(line); },
        setTimer(id, ms) {
          timers.set(id, nativeSetTimeout(() => { timers.delete(id); guest.fire(id); }, ms));
        },
        clearTimer(id) { nativeClearTimeout(timers.get(id)); timers.delete(id); },
        done(report) {
          for (const timer of timers.values()) nativeClearTimeout(timer);
          resolve({ report, logs, exhausted: exhausted() });
        },
      };
      guest = prelude()(host, configText);
      guest.run(main);
    });
  }
}
`;

const FUEL = `let used = 0;
let allowed = Infinity;
let spent = false;
export function allow(checks) { allowed = checks; }
export function exhausted() { return spent; }
export function check() {
  if (++used > allowed) {
    spent = true;
    throw new RangeError('The code ran out of compute time.');
  }
}
`;

/** The dynamic Worker's modules for one attempt; `check` is the compute check's random name. */
export function guestModules(code: string, check: string): Record<string, string> {
  return {
    'main.js': MAIN,
    'prelude.js': `export default ${PRELUDE_SOURCE};\n`,
    'fuel.js': FUEL,
    [GUEST_FILE]: `import { check as ${check} } from './fuel.js'; export default async function () {\n${code}\n}\n`,
  };
}
