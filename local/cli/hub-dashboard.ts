/**
 * `capabilities hub dashboard`: opens the local dashboard (inbox, runs, sources) in the person's
 * browser through a one-time link, served by the hub's page host (started when none runs). When
 * no browser opens (a machine without one, `CAPABILITIES_OPEN_PAGES=0`), it prints the link for
 * the person to open within its ten minutes: this command is run by a person in a terminal,
 * never by the model through the hub.
 */
import type { Command } from 'commander';
import { outputOf } from './hub-action.ts';

export function registerDashboard(hub: Command): void {
  hub
    .command('dashboard')
    .description('Open the dashboard (inbox, runs, sources) in your browser with a one-time link')
    .action(async (_options: object, command: Command) => {
      const out = outputOf(command);
      const [
        { openHub },
        { homePaths },
        { ensurePageHost },
        { openInBrowser },
        { opensPages },
        { linkPath },
      ] = await Promise.all([
        import('../open-hub.ts'),
        import('../home.ts'),
        import('../pages/page-host.ts'),
        import('../pages/browser.ts'),
        import('../pages/page-opener.ts'),
        import('../../dashboard/link-session.tsx'),
      ]);
      const open = openHub(out);
      try {
        const base = await ensurePageHost(homePaths(), open.local);
        const link = await open.engine.pages.mintLink({ kind: 'dashboard' });
        const url = `${base}${linkPath(link.token)}`;
        const opened = opensPages(open.local.openPages) && (await openInBrowser(url));
        const until = new Date(link.expiresAt).toISOString().slice(11, 16);
        out.result(
          { opened, ...(opened ? {} : { url }), expiresAt: link.expiresAt },
          opened
            ? 'The dashboard opened in your browser.'
            : `No browser opened. Open this link yourself (it works once, until ${until} UTC):\n${url}`,
        );
      } finally {
        await open.close();
      }
    });
}
