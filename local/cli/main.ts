/**
 * The `capabilities` CLI (commander). One file per command group registers its commands;
 * this file holds the global options (--json, --no-input, --version) and turns a thrown
 * error into a message and an exit code. Commands read the global options from their own
 * command (`optsWithGlobals`, in hub-action.ts); the one action wrapper there opens the hub.
 */
import { Command, CommanderError } from 'commander';
import { HubError } from '../../engine/errors.ts';
import { VERSION } from '../package-files.ts';
import { registerConnect } from './hub-connect.ts';
import { registerConnections } from './hub-connections.ts';
import { registerDashboard } from './hub-dashboard.ts';
import { registerDoctor } from './hub-doctor.ts';
import { registerHosted } from './hub-hosted.ts';
import { registerHostedConfig } from './hub-hosted-config.ts';
import { registerImport } from './hub-import.ts';
import { registerInit } from './hub-init.ts';
import { registerProfiles } from './hub-profiles.ts';
import { registerRuns } from './hub-runs.ts';
import { registerSearch } from './hub-search.ts';
import { registerServe } from './hub-serve.ts';
import { registerSkills } from './hub-skills.ts';
import { registerSources } from './hub-sources.ts';
import { type GlobalOptions, reportError } from './output.ts';

export function buildProgram(): Command {
  const program = new Command('capabilities')
    .description('One MCP endpoint for every tool your agents use.')
    .version(VERSION, '-V, --version', 'print the version')
    .option('--json', 'print results as JSON (always one object)', false)
    .option('--no-input', 'never prompt; fail with what to pass instead')
    .showHelpAfterError()
    .exitOverride();
  // A usage error (an unknown option, a value not among an option's choices, options that
  // conflict) is the same `{ "error": … }` object as any other with --json; help stays on stderr.
  program.configureOutput({
    outputError: (text, write) => {
      if (!program.opts<GlobalOptions>().json) return write(text);
      reportError(new HubError('invalid_input', text.replace(/^error: /, '').trim()), { json: true });
    },
  });
  const hub = program.command('hub').description('Run and manage the local hub');
  registerInit(hub);
  registerImport(hub);
  registerDoctor(hub);
  registerServe(hub);
  registerSources(hub);
  registerSkills(hub);
  registerProfiles(hub);
  registerConnections(hub);
  registerSearch(hub);
  registerRuns(hub);
  registerDashboard(hub);
  registerConnect(hub);
  registerHosted(hub);
  registerHostedConfig(hub);
  return program;
}

export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    // commander has already printed help or the usage error. Actions throw HubErrors, never
    // commander's own errors, so nothing reaches here unprinted.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    return reportError(error, program.opts<GlobalOptions>());
  }
}

// A command is done when main returns (serve returns only after SIGINT/SIGTERM): exit even if a
// pooled worker thread or a child's pipe would keep the event loop alive a little longer.
process.exit(await main(process.argv.slice(2)));
