/**
 * The one action wrapper for a command on the open hub. commander calls the action with the
 * command's arguments, its options and the command itself; the wrapper reads the global options
 * from the command (`optsWithGlobals`: --json, --no-input), hands `body` the command's Output
 * with the arguments, and runs what `body` returns on the hub, opened (`withHub`, loaded on
 * use so `--help` never pays for the engine) and closed whatever happens. What `body` does
 * before it returns runs before the hub opens: checks of the input, so a mistake in a command
 * line never creates or opens a hub. A thrown error reaches main.ts, which reports it.
 */
import type { Command } from 'commander';
import type { Engine } from '../../engine/engine.ts';
import { createOutput, type GlobalOptions, type Output } from './output.ts';

/** What a command does on the open hub. */
export type OnHub = (engine: Engine) => Promise<void>;

/** The Output for `command`, as its global options ask. */
export function outputOf(command: Command): Output {
  return createOutput(command.optsWithGlobals<GlobalOptions>());
}

/**
 * An action for commander: `body(out, ...arguments, options)` checks its input and returns what
 * to do on the open hub, or nothing when there is nothing to open it for.
 */
export function hubAction<A extends unknown[]>(
  body: (out: Output, ...args: A) => OnHub | undefined | Promise<OnHub | undefined>,
): (...args: [...A, Command]) => Promise<void> {
  return async (...args) => {
    const command = args[args.length - 1] as Command;
    const out = outputOf(command);
    const onHub = await body(out, ...(args.slice(0, -1) as A));
    if (!onHub) return;
    const { withHub } = await import('../open-hub.ts');
    await withHub(out, onHub);
  };
}
