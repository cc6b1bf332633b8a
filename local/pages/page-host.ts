/**
 * The page host: the one process that serves a local hub's approval page and dashboard on
 * loopback (`capabilities hub serve --pages`). Every `serve --stdio` process of the hub (several
 * run at once, one per agent session) finds it through `pages.json` in the hub's folder, or
 * starts it, detached, when none answers; so a page keeps working after the agent session that
 * opened it ends. It listens on 127.0.0.1 only, on a port the system picks, and leaves when it
 * has served nothing for PAGE_HOST_IDLE_MS, when another page host took its place, or on a signal.
 *
 * Two processes may start a page host at the same moment: each host registers itself in
 * `pages.json` only when no live host is there, and a host that finds another's registration
 * in its place leaves, so one remains.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, unlinkSync } from 'node:fs';
import { z } from 'zod';
import { HubError } from '../../engine/errors.ts';
import { type HomePaths, writeFileAtomic } from '../home.ts';
import { LOOPBACK } from '../server.ts';
import { CHECKOUT_BIN } from '../setup-snippets.ts';

/** A page host with no request for this long leaves (a new one starts when a page is needed). */
export const PAGE_HOST_IDLE_MS = 30 * 60_000;
/** How long a started page host has to answer before opening a page fails. */
const START_TIMEOUT_MS = 15_000;
/** How long a page host has to answer its health check. */
const HEALTH_TIMEOUT_MS = 2_000;

/** What `pages.json` holds while a page host runs. */
export const PageHostFile = z.object({
  pid: z.number().int().positive(),
  port: z.number().int().min(1).max(65535),
  hubId: z.string().min(1),
});
export type PageHostFile = z.infer<typeof PageHostFile>;

/** The registration in `pages.json`; undefined when there is none or it is unreadable. */
export function readPageHost(paths: HomePaths): PageHostFile | undefined {
  try {
    const parsed = PageHostFile.safeParse(JSON.parse(readFileSync(paths.pagesFile, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The base URL of a page host on `port`. */
export const pageHostUrl = (port: number) => `http://${LOOPBACK}:${port}`;

/** True when the server on `port` answers /healthz as hub `hubId`. */
async function answersFor(port: number, hubId: string): Promise<boolean> {
  try {
    const response = await fetch(`${pageHostUrl(port)}/healthz`, {
      signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
    });
    if (!response.ok) return false;
    const health = (await response.json()) as { hubId?: unknown };
    return health.hubId === hubId;
  } catch {
    return false;
  }
}

/** The base URL of the hub's running page host; undefined when none answers. */
export async function livePageHost(paths: HomePaths, hubId: string): Promise<string | undefined> {
  const registered = readPageHost(paths);
  if (!registered || registered.hubId !== hubId) return undefined;
  return (await answersFor(registered.port, hubId)) ? pageHostUrl(registered.port) : undefined;
}

/**
 * The base URL of the hub's page host: the running one, else one started now (detached, its
 * stderr appended to `pages.log`). Throws HubError('unavailable') when it does not come up.
 */
export async function ensurePageHost(
  paths: HomePaths,
  hubId: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const live = await livePageHost(paths, hubId);
  if (live) return live;
  const log = openSync(paths.pagesLog, 'a', 0o600);
  try {
    const child = spawn(CHECKOUT_BIN, ['hub', 'serve', '--pages'], {
      detached: true,
      stdio: ['ignore', 'ignore', log],
      env,
    });
    child.on('error', () => {});
    child.unref();
  } finally {
    closeSync(log);
  }
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = await livePageHost(paths, hubId);
    if (started) return started;
  }
  throw new HubError(
    'unavailable',
    `the hub's page host did not start within ${START_TIMEOUT_MS / 1000} s; see ${paths.pagesLog}, or decide with \`capabilities hub approve\``,
  );
}

/**
 * Registers this process as the hub's page host on `port`: true when it now is, false when a
 * live page host already serves the hub (this one should leave).
 */
export async function registerPageHost(paths: HomePaths, mine: PageHostFile): Promise<boolean> {
  const text = `${JSON.stringify(mine)}\n`;
  if (writeFileAtomic(paths.pagesFile, text, { exclusive: true })) return true;
  const other = readPageHost(paths);
  if (other && other.pid !== mine.pid && (await answersFor(other.port, mine.hubId))) return false;
  writeFileAtomic(paths.pagesFile, text);
  return true;
}

/** True while `pages.json` still names this process. */
export function stillRegistered(paths: HomePaths, mine: PageHostFile): boolean {
  const current = readPageHost(paths);
  return current?.pid === mine.pid && current.port === mine.port;
}

/** Removes `pages.json` when it still names this process. */
export function unregisterPageHost(paths: HomePaths, mine: PageHostFile): void {
  if (!stillRegistered(paths, mine)) return;
  try {
    unlinkSync(paths.pagesFile);
  } catch {
    // Gone already: nothing to undo.
  }
}
