/**
 * The guest prelude (spec: The MCP surface, "Inside the sandbox"): one source text that both
 * sandbox drivers evaluate before the model's code. It is a function expression in two steps:
 *
 *   const configure = (PRELUDE_SOURCE)();              // the guest's globals, for no attempt yet
 *   const guest = configure(host, configText);         // this attempt: host, seed, clock, namespaces
 *   guest.run(main);                                   // the model's async function
 *   // …then guest.deliver(id, answer) per answer and guest.fire(id) per timer, until host.done(report)
 *
 * The first step is the costly one (QuickJS compiles ~30 KB), and depends on nothing about the
 * attempt, so a driver may do it ahead of time. The driver supplies `host` (HostPrimitives) and
 * nothing else reaches the guest: `host` is an argument, never a global, so the model's code
 * cannot name it. The prelude is a convenience layer, not the security boundary: everything it
 * sends out, the host checks again. The report is described in guest-report.ts.
 *
 * The fragments share one function scope and are concatenated in this order: later fragments
 * use what earlier ones define; the globals are replaced last, after everything is built.
 */
import { BRIDGE } from './source/bridge.ts';
import { CONFIGURE } from './source/configure.ts';
import { CONSOLE } from './source/console.ts';
import { DETERMINISM } from './source/determinism.ts';
import { GLOBALS } from './source/globals.ts';
import { RUN } from './source/run.ts';
import { SETUP } from './source/setup.ts';
import { TIMERS } from './source/timers.ts';
import { WEB } from './source/web.ts';

/** The prelude: a JavaScript function expression; its call returns `configure`. */
export const PRELUDE_SOURCE = `(function prelude() {${[
  SETUP,
  DETERMINISM,
  WEB,
  CONSOLE,
  TIMERS,
  BRIDGE,
  GLOBALS,
  RUN,
  CONFIGURE,
].join('\n')}})`;
