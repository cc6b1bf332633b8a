/**
 * Opening the approval page for a run the client cannot ask about (`SurfacePages` of the local
 * hub): a one-time link to the run's page (engine.pages), opened in the person's browser. The
 * link's token goes into the URL handed to the browser and nowhere else; the surface learns only
 * whether a page is open.
 *
 * One page per run and set of calls: a resume that finds the same calls still waiting does not
 * open another tab; a call the page has not shown yet (the run asked again), or a page host that
 * is not the one that served the page (it left while idle, and a new one started elsewhere),
 * opens it afresh.
 * Opening is on unless hub.json's `openPages` is false, and `CAPABILITIES_OPEN_PAGES` (0/1)
 * decides for one process.
 */
import { linkPath } from '../../dashboard/link-session.tsx';
import type { PageTarget } from '../../engine/contracts/pages.ts';
import type { MintedLink } from '../../engine/pages/page-access.ts';
import type { SurfacePages } from '../../engine/surface/index.ts';

export interface PageOpenerDeps {
  /** The base URL the pages are served at: the page host's, or this process's own server. */
  base(): Promise<string>;
  /** A one-time link to `target` (engine.pages.mintLink). */
  mint(target: PageTarget): Promise<MintedLink>;
  /** Opens `url` in the person's browser; true when it opened. */
  open(url: string): Promise<boolean>;
}

/** Whether pages open in the browser: `CAPABILITIES_OPEN_PAGES` when set, else hub.json's `openPages`. */
export function opensPages(setting: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CAPABILITIES_OPEN_PAGES?.trim().toLowerCase();
  if (value === undefined || value === '') return setting;
  return !['0', 'false', 'no', 'off'].includes(value);
}

export class PageOpener implements SurfacePages {
  readonly #deps: PageOpenerDeps;
  /** Each run's open page: where it is served and the calls it shows. */
  readonly #shown = new Map<string, { base: string; ids: ReadonlySet<string> }>();

  constructor(deps: PageOpenerDeps) {
    this.#deps = deps;
  }

  async open(runId: string, pendingIds: readonly string[]): Promise<boolean> {
    const base = await this.#deps.base();
    const shown = this.#shown.get(runId);
    if (shown?.base === base && pendingIds.every((id) => shown.ids.has(id))) return true;
    const link = await this.#deps.mint({ kind: 'run', runId });
    const opened = await this.#deps.open(`${base}${linkPath(link.token)}`);
    if (opened) this.#shown.set(runId, { base, ids: new Set(pendingIds) });
    return opened;
  }
}
