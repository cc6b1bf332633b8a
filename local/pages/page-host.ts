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
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, openSync, readFileSync, unlinkSync } from 'node:fs';
import { z } from 'zod';
import { HubError } from '../../engine/errors.ts';
import { hostProof } from '../../engine/host-proof.ts';
import { type HomePaths, writeFileAtomic } from '../home.ts';
import { selfCommand } from '../package-files.ts';
import { LOOPBACK } from '../server.ts';

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

/** The most a health answer may be: a foreign server's longer body is not read. */
const HEALTH_MAX_BYTES = 1024;

/**
 * True when the server on `port` is this hub's own: it answers /healthz with the hub id and the
 * proof, under the hub's token, of a nonce drawn now (engine/host-proof.ts). A program that took
 * a dead page host's port knows the id (anyone may ask for it) but not the token.
 */
async function answersFor(port: number, hub: HubKey): Promise<boolean> {
  const nonce = randomBytes(24).toString('base64url');
  try {
    const response = await fetch(`${pageHostUrl(port)}/healthz?nonce=${nonce}`, {
      signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
    });
    const body = response.ok ? await cappedText(response, HEALTH_MAX_BYTES) : undefined;
    if (body === undefined) return false;
    const health = JSON.parse(body) as { hubId?: unknown; proof?: unknown };
    if (health.hubId !== hub.hubId || typeof health.proof !== 'string') return false;
    const expected = await hostProof(hub.token, nonce);
    return (
      health.proof.length === expected.length &&
      timingSafeEqual(Buffer.from(health.proof), Buffer.from(expected))
    );
  } catch {
    return false;
  }
}

/** The body as text when it is at most `max` bytes; undefined (and the rest unread) otherwise. */
async function cappedText(response: Response, max: number): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** What tells this hub's servers apart from any other program: its id and its token. */
export interface HubKey {
  hubId: string;
  token: string;
}

/** The base URL of the hub's running page host; undefined when none answers as the hub's own. */
export async function livePageHost(paths: HomePaths, hub: HubKey): Promise<string | undefined> {
  const registered = readPageHost(paths);
  if (!registered || registered.hubId !== hub.hubId) return undefined;
  return (await answersFor(registered.port, hub)) ? pageHostUrl(registered.port) : undefined;
}

/**
 * The base URL of the hub's page host: the running one, else one started now (detached, its
 * stderr appended to `pages.log`). Throws HubError('unavailable') when it does not come up.
 */
export async function ensurePageHost(
  paths: HomePaths,
  hub: HubKey,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const live = await livePageHost(paths, hub);
  if (live) return live;
  const log = openSync(paths.pagesLog, 'a', 0o600);
  try {
    const [command, ...args] = selfCommand();
    const child = spawn(command, [...args, 'hub', 'serve', '--pages'], {
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
    const started = await livePageHost(paths, hub);
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
export async function registerPageHost(
  paths: HomePaths,
  mine: PageHostFile,
  token: string,
): Promise<boolean> {
  const text = `${JSON.stringify(mine)}\n`;
  if (writeFileAtomic(paths.pagesFile, text, { exclusive: true })) return true;
  const other = readPageHost(paths);
  if (other && other.pid !== mine.pid && (await answersFor(other.port, { hubId: mine.hubId, token })))
    return false;
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
