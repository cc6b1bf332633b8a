/**
 * `capabilities hub init [--import …]`: creates the hub's home, idempotently, and says what it
 * made; with `--import`, then imports the MCP servers the person's harnesses use (hub-import.ts),
 * taking the import's own options.
 */
import type { Command } from 'commander';
import { HARNESSES } from '../import/found.ts';
import { outputOf } from './hub-action.ts';
import type { ImportOptions } from './hub-import.ts';

interface InitOptions extends Omit<ImportOptions, 'dryRun'> {
  import?: boolean;
}

export function registerInit(hub: Command): void {
  hub
    .command('init')
    .description('Create the hub in ~/.capabilities/hub (or $CAPABILITIES_HOME/hub); safe to run again')
    .option('--import', 'then import the MCP servers your harnesses use, after one review (see `hub import`)')
    .option('--from <harness...>', `with --import: only these harnesses: ${HARNESSES.join(', ')}`)
    .option('--yes', 'with --import: consent to every command and credential shown and accept the proposal')
    .option('--skip-failing', 'with --import: leave out a server that fails to start or list its tools')
    .action(async (options: InitOptions, command: Command) => {
      const out = outputOf(command);
      const { import: importToo, ...importOptions } = options;
      const { HubError } = await import('../../engine/errors.ts');
      if (!importToo && (options.from || options.yes || options.skipFailing)) {
        throw new HubError('invalid_input', '--from, --yes and --skip-failing go with --import');
      }
      // Loaded on use: `--help` and `--version` should not pay for the store's modules.
      const [{ homePaths }, { initHub }] = await Promise.all([
        import('../home.ts'),
        import('../local-hub.ts'),
      ]);
      const importing = importToo ? await import('./hub-import.ts') : undefined;
      // An unknown --from is refused before anything is created.
      const onHub = importing?.importInto(out, importOptions);
      const paths = homePaths();
      const report = initHub(paths, Date.now());
      const lines =
        report.created.length === 0
          ? [`The hub at ${paths.hub} is already set up; nothing to create.`]
          : [
              `Created the hub ${report.hubId} at ${paths.hub}:`,
              ...report.created.map((path) => `  ${path}`),
            ];
      lines.push(`Schema version ${report.schemaVersion}. Folders are mode 700, files 600.`);
      if (!onHub) {
        out.result({ hub: paths.hub, ...report }, lines.join('\n'));
        return;
      }
      out.note(lines.join('\n'));
      const { withHub } = await import('../open-hub.ts');
      await withHub(out, onHub);
    });
}
