/** `capabilities hub init`: creates the hub's home, idempotently, and says what it made. */
import type { Command } from 'commander';
import { outputOf } from './hub-action.ts';

export function registerInit(hub: Command): void {
  hub
    .command('init')
    .description('Create the hub in ~/.capabilities/hub (or $CAPABILITIES_HOME/hub); safe to run again')
    .action(async (_options: object, command: Command) => {
      // Loaded on use: `--help` and `--version` should not pay for the store's modules.
      const [{ homePaths }, { initHub }] = await Promise.all([
        import('../home.ts'),
        import('../local-hub.ts'),
      ]);
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
      outputOf(command).result({ hub: paths.hub, ...report }, lines.join('\n'));
    });
}
