/**
 * The local hub's home: `~/.capabilities/hub/`, or `$CAPABILITIES_HOME/hub/` when that is set
 * (tests, and people with several hubs). Folders are mode 700 and files 600. Plain files are
 * written to a temporary file, synced and renamed into place, so a crash leaves the old file
 * or the new one, never half of either.
 *
 * Layout: hub.json (settings, schema version, hub id), hub.db (the store), http-token (the
 * bearer token of `serve --http`), and while the page host runs pages.json (its port) and
 * pages.log (its stderr). After `hub login`, hosted.json (the hosted hub signed in to; its
 * tokens are in the secret store, never here).
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { HubFile } from '../engine/contracts/hub-file.ts';
import { HubError } from '../engine/errors.ts';

export interface HomePaths {
  /** `~/.capabilities` or $CAPABILITIES_HOME */
  root: string;
  /** `<root>/hub` */
  hub: string;
  hubFile: string;
  db: string;
  token: string;
  /** The secret store's fallback file where there is no OS keychain. */
  envFile: string;
  /** Where the hub's page host says it listens (local/pages/page-host.ts), while it runs. */
  pagesFile: string;
  /** What the page host writes on stderr (it runs detached, with no terminal). */
  pagesLog: string;
  /** The hosted hub `hub login` signed in to (local/hosted/hosted-state.ts), while signed in. */
  hostedFile: string;
}

export function homePaths(env: NodeJS.ProcessEnv = process.env): HomePaths {
  const root = env.CAPABILITIES_HOME?.trim() || join(homedir(), '.capabilities');
  const hub = join(root, 'hub');
  return {
    root,
    hub,
    hubFile: join(hub, 'hub.json'),
    db: join(hub, 'hub.db'),
    token: join(hub, 'http-token'),
    envFile: join(root, '.env'),
    pagesFile: join(hub, 'pages.json'),
    pagesLog: join(hub, 'pages.log'),
    hostedFile: join(hub, 'hosted.json'),
  };
}

/** Creates `dir` (and parents) with mode 700; true when it did not exist. */
export function ensureDir(dir: string): boolean {
  if (existsSync(dir)) return false;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return true;
}

/**
 * Writes `text` to `path` with mode 600 through a synced temporary file and a rename.
 * With `exclusive`, the file is only created, never replaced: it returns false when another
 * process got there first (two `serve --stdio` starting at once agree on one hub.json).
 */
export function writeFileAtomic(path: string, text: string, options: { exclusive?: boolean } = {}): boolean {
  const temp = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  if (options.exclusive) {
    try {
      linkSync(temp, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    } finally {
      unlinkSync(temp);
    }
  } else {
    renameSync(temp, path);
  }
  const dirFd = openSync(dirname(path), 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
  return true;
}

/** Reads and validates hub.json, naming the file and the problem when it is wrong. */
export function readHubFile(path: string): HubFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new HubError(
        'not_found',
        `${path} does not exist: there is no hub at ${dirname(path)}. Create it with \`capabilities hub init\` (or \`npm start\` in a checkout of capabilities), or point CAPABILITIES_HOME at the hub you meant`,
      );
    }
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new HubError(
      'corrupt',
      `${path} is not valid JSON (${(error as Error).message}). Fix it by hand, or move it away and run \`capabilities hub init\` to write a new one.`,
    );
  }
  const parsed = HubFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? `field "${issue.path.join('.')}"` : 'the file';
    throw new HubError(
      'corrupt',
      `${path} is not a valid hub.json: ${field}: ${issue?.message ?? 'invalid'}. Fix that field, or move the file away and run \`capabilities hub init\`.`,
    );
  }
  return parsed.data;
}

export function writeHubFile(path: string, file: HubFile, options: { exclusive?: boolean } = {}): boolean {
  return writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`, options);
}

/** A new random bearer token: 32 bytes, base64url (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Reads the bearer token, refusing one shorter than 32 characters. */
export function readToken(path: string): string {
  let token: string;
  try {
    token = readFileSync(path, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new HubError('not_found', `${path} does not exist; run \`capabilities hub init\` to create it`);
    }
    throw error;
  }
  if (token.length < 32) {
    throw new HubError(
      'corrupt',
      `the token in ${path} is shorter than 32 characters; delete the file and run \`capabilities hub init\` for a new one`,
    );
  }
  return token;
}

/** A new hub id: `hub_` and 24 hex digits. */
export function newHubId(): string {
  return `hub_${randomBytes(12).toString('hex')}`;
}
