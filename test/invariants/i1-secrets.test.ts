/**
 * I1 (test/invariants/i1-secrets.suite.ts) on a local hub, "A secret value never enters the sandbox, a
 * journal, a log, telemetry or a result": every channel (sandbox, journal, logs and the stderr tail,
 * results, errors, run history, the approval page and the dashboard, `--json` output, doctor) against every
 * encoding an upstream might echo its credential in (raw, base64, base64url, URL and form encoding with
 * upper- and lower-case escapes, hex in either case, JSON-escaped with and without `\/`, HTML-escaped,
 * inside HTTP Basic's `base64(user:token)`, split across two results, inside a thrown error's message,
 * written to stderr before a crash, an OAuth token refreshed mid-run).
 *
 * Two encodings were found unscrubbed by this file and fixed in engine/secrets/scrub.ts: URL
 * escapes in lower case (`%2f`) and HTML entities (`&quot;`).
 *
 * One hub in a temp home, built through the CLI: a hostile stdio source
 * (test/fixtures/servers/encoding-secret-server.ts) whose credential a person entered with `hub
 * auth` on standard input, and that hands it back in whichever encoding is asked
 * (test/invariants/i1-kit.ts). The model drives it with the official MCP client over `hub serve
 * --stdio`; the test then reads each channel as a person or the model would. Each `it` is one
 * channel × one encoding (the suite's), after one that shows the attack reached the channel:
 *
 * | Way in        | Attack                                                      | Held                      |
 * | ------------- | ----------------------------------------------------------- | ------------------------- |
 * | MCP execute   | it answers the token in each encoding                       | none in the result        |
 * | MCP execute   | the guest returns the char codes it saw (sandbox)           | the guest never saw it    |
 * | MCP execute   | `console.log` of each answer                                | the run's logs have none  |
 * | MCP execute   | it throws quoting each encoding; caught and uncaught        | the errors have none      |
 * | MCP execute   | it writes each encoding to stderr, then dies mid-call       | the stderr tail has none  |
 * | MCP execute   | an asking tool whose description holds the token            | the pending call has none |
 * | Store         | the journal rows: the SQLite file and its WAL               | none in the bytes         |
 * | CLI           | `hub runs`, `hub runs show` (plain and `--json`)            | none                      |
 * | CLI           | `--json hub call` and `hub exec`, each encoding             | none                      |
 * | CLI           | `hub doctor` (plain and `--json`)                           | none                      |
 * | Approval page | the page opened for the asking call, over HTTP              | none in the HTML          |
 * | Dashboard     | `hub dashboard`: inbox, runs, each run's page, sources      | none in the HTML          |
 * | MCP over HTTP | the same program through `serve --http`, with its token     | none in the answer        |
 * | Logs          | `hub serve`'s stderr and the page host's pages.log          | none                      |
 * | CLI, OAuth    | an expired token, refreshed at the run's first call, echoed | no token, old or new      |
 * | CLI, push     | the plan of `hub push` (plain, `--json`, `--secrets`)       | no token                  |
 * | MCP execute   | two results, each half of the raw token, joined             | known gap (`it.fails`)    |
 *
 * Also held by (not moved): test/engine/scrub.test.ts (the scrubber's forms, unit),
 * test/node/secrets-everywhere.test.ts (a token in stderr, declarations and names; a filesystem
 * source rooted at the home), test/node/hub-secrets.test.ts (which values are scrubbed, HTTP
 * Basic), test/node/oauth-refresh.test.ts and oauth-refresh-lease.test.ts (a token refreshed at
 * the moment of a request is scrubbed), test/node/openapi-request.test.ts and
 * openapi-responses.test.ts (OpenAPI echoes), test/node/configuration-push.test.ts and
 * test/workers/hub-push.test.ts (the plan of `push`), test/workers/hub-secrets.test.ts (the
 * hosted hub's HUB_TOKEN and prompt key), test/e2e/approval-page.test.ts (the page's own token).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { secretKey } from '../../engine/secrets/secret-store.ts';
import { homePaths } from '../../local/home.ts';
import { writeHostedFile, writeHostedTokens } from '../../local/hosted/hosted-state.ts';
import { EnvFileSecretStore } from '../../local/secret-store.ts';
import { type OAuthBoard, startOAuthBoard } from '../fixtures/oauth-board-server.ts';
import { BIN, cli, cliEnv, hubHome, REPO, runCli, startServe } from '../node/cli-process.ts';
import { HOSTED_TOKEN, startHostedStandin } from '../node/hosted-standin.ts';
import { browser } from '../node/oauth-person.ts';
import { pageBrowser, stopPageHost } from '../node/page-browser.ts';
import { httpClient, NODE, stdioClient } from '../node/surface-fixture.ts';
import { encodings, forbidden, SECRET } from './i1-kit.ts';
import { describeSecrets } from './i1-secrets.suite.ts';

const SERVER = join(REPO, 'test', 'fixtures', 'servers', 'encoding-secret-server.ts');
const NAMES = encodings(SECRET).map((form) => form.name);

/** What each channel showed, as the person or the model reads it; filled once in beforeAll. */
const channels = new Map<string, string>();
let split = '';

let home: string;
let removeHome: () => void;
let client: Client | undefined;

type Result = Awaited<ReturnType<Client['callTool']>>;
const envelopeOf = (result: Result) => result.structuredContent as ExecuteEnvelope;
const readIfExists = (path: string) => (existsSync(path) ? readFileSync(path, 'latin1') : '');

function ok(args: string[]): string {
  const result = cli(home, args);
  expect(result.status, result.stderr).toBe(0);
  return `${result.stdout}\n${result.stderr}`;
}

/** The model's program: every encoding echoed, logged and thrown, and what the guest saw, as char codes. */
const MATRIX = `
  const seen = [];
  for (const form of ${JSON.stringify(NAMES)}) {
    const answer = await enc.echo({ form });
    console.log(form, answer);
    seen.push(answer);
  }
  const errors = [];
  for (const form of ${JSON.stringify(NAMES)}) {
    try { await enc.fail({ form }); errors.push("no error"); }
    catch (e) { errors.push(String(e && e.message)); }
  }
  let crash = "";
  try { await enc.shout({}); } catch (e) { crash = String(e && e.message); }
  const all = JSON.stringify({ seen, errors, crash });
  return { seen, errors, crash, codes: Array.from(all, (c) => c.charCodeAt(0)) };
`;

async function execute(
  args: { code: string } | { resume: string },
): Promise<{ text: string; envelope: ExecuteEnvelope }> {
  if (!client) throw new Error('no client');
  const result = await client.callTool({ name: 'execute', arguments: args });
  return { text: JSON.stringify(result), envelope: envelopeOf(result) };
}

/**
 * The pages a one-time link opens, as a browser reads them: the link (its redirect and the
 * session cookie it sets), then the page it leads to and each of `more` with that session.
 */
async function pagesBehind(link: string, more: string[] = []): Promise<string> {
  const opened = await fetch(link, { redirect: 'manual' });
  const cookie = opened.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const location = opened.headers.get('location');
  const texts = [await opened.text()];
  for (const path of [...(location ? [location] : []), ...more]) {
    const page = await fetch(new URL(path, link), { headers: { cookie } });
    texts.push(`${page.status} ${path}\n${await page.text()}`);
  }
  return texts.join('\n');
}

beforeAll(async () => {
  ({ home, remove: removeHome } = hubHome());
  ok([
    'hub',
    'add',
    '--yes',
    '--namespace',
    'enc',
    '--',
    NODE,
    '--disable-warning=ExperimentalWarning',
    SERVER,
  ]);
  const auth = spawnSync(BIN, ['hub', 'auth', 'enc', '--env', 'API_TOKEN'], {
    env: cliEnv(home),
    input: SECRET,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(auth.status, auth.stderr).toBe(0);
  channels.set('`hub auth` output', `${auth.stdout}\n${auth.stderr}`);
  // The server now runs with its token, and says it in `post`'s description.
  ok(['hub', 'refresh', 'enc']);

  const pages = pageBrowser(home);
  const session = await stdioClient(home, 'legacy', pages.env);
  client = session.client;

  const matrix = await execute({ code: MATRIX });
  expect(matrix.envelope.status, matrix.text).toBe('completed');
  const value = matrix.envelope.result as { codes: number[]; errors: string[]; crash: string };
  channels.set('MCP execute result', matrix.text);
  channels.set('the sandbox (what the guest saw)', String.fromCharCode(...value.codes));
  channels.set('the run’s logs', JSON.stringify(matrix.envelope.logs ?? []));
  channels.set('errors the guest caught', JSON.stringify(value.errors));
  channels.set('the stderr tail in a crash’s error', value.crash);

  const uncaught = await execute({ code: 'return await enc.fail({ form: "raw" });' });
  expect(uncaught.envelope.status, uncaught.text).toBe('failed');
  channels.set('an uncaught error', uncaught.text);

  const halves = await execute({
    code: 'return [await enc.half({ part: 1 }), await enc.half({ part: 2 })];',
  });
  split = (halves.envelope.result as string[]).join('');

  const asked = await execute({ code: 'return await enc.post({ text: await enc.echo({ form: "raw" }) });' });
  expect(asked.envelope.status, asked.text).toBe('awaiting_approval');
  channels.set('the pending call (MCP)', asked.text);
  // `$BROWSER` runs on its own: wait for the address it writes down (a loaded machine may lag).
  for (let waited = 0; pages.opened().length === 0 && waited < 30_000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const link = pages.opened().at(-1) ?? '';
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/open\?t=/);
  channels.set('the approval page', await pagesBehind(link));

  const runs = [matrix, uncaught, halves, asked].map((run) => run.envelope.runId);
  const dashboard = JSON.parse(cli(home, ['--json', 'hub', 'dashboard']).stdout) as { url: string };
  const paths = ['/', '/runs', ...runs.map((id) => `/runs/${id}`), '/sources', '/sources/enc'];
  channels.set('the dashboard (inbox, runs, each run, sources)', await pagesBehind(dashboard.url, paths));
  channels.set(
    'run history (`hub runs`, `hub runs show`)',
    [ok(['hub', 'runs']), ...runs.map((id) => ok(['hub', 'runs', 'show', id]))].join('\n'),
  );
  channels.set(
    'run history, --json',
    [ok(['--json', 'hub', 'runs']), ...runs.map((id) => ok(['--json', 'hub', 'runs', 'show', id]))].join(
      '\n',
    ),
  );
  channels.set(
    '`--json hub call`',
    NAMES.map((form) => ok(['--json', 'hub', 'call', 'enc.echo', `{"form":"${form}"}`])).join('\n'),
  );
  channels.set('`hub exec`', ok(['hub', 'exec', 'return await enc.echo({ form: "hex" })']));
  channels.set(
    '`hub doctor`',
    [cli(home, ['hub', 'doctor']), cli(home, ['--json', 'hub', 'doctor'])]
      .map((r) => `${r.stdout}\n${r.stderr}`)
      .join('\n'),
  );

  await client.close();
  client = undefined;

  // The same program over `serve --http`, with the official client and the bearer token.
  const serve = await startServe(home);
  try {
    const http = await httpClient(serve.url, readFileSync(serve.tokenFile, 'utf8').trim(), 'legacy');
    try {
      const answer = await http.callTool({ name: 'execute', arguments: { code: MATRIX } });
      expect(envelopeOf(answer).status, JSON.stringify(answer)).toBe('completed');
      channels.set('MCP over HTTP (`serve --http`)', JSON.stringify(answer));
    } finally {
      await http.close();
    }
  } finally {
    await serve.stop();
  }
  channels.set('`hub serve`’s stderr (stdio and HTTP)', `${session.stderr()}\n${serve.stderr()}`);
  channels.set('the page host’s pages.log', readIfExists(join(home, 'hub', 'pages.log')));
  channels.set(
    'the journal (hub.db and its WAL)',
    ['hub.db', 'hub.db-wal'].map((f) => readIfExists(join(home, 'hub', f))).join('\n'),
  );
}, 300_000);

afterAll(async () => {
  await client?.close();
  stopPageHost(home);
  removeHome();
}, 60_000);

/**
 * Each channel, and what it must show to prove the attack reached it (an empty mark: the channel
 * may be empty, as a log with nothing to say).
 */
const CHANNELS: [channel: string, reached: string][] = [
  ['MCP execute result', 'token [secret] ok'],
  ['the sandbox (what the guest saw)', 'token [secret] ok'],
  ['the run’s logs', 'raw token [secret] ok'],
  ['errors the guest caught', 'token [secret] was rejected'],
  ['an uncaught error', 'token [secret] was rejected'],
  ['the stderr tail in a crash’s error', 'encoding-secret: raw [secret] | base64 [secret]'],
  ['the pending call (MCP)', 'Post as [secret].'],
  ['the approval page', 'Post as [secret].'],
  ['the dashboard (inbox, runs, each run, sources)', 'token [secret] was rejected'],
  ['run history (`hub runs`, `hub runs show`)', 'token [secret] was rejected'],
  ['run history, --json', 'token [secret] was rejected'],
  ['`--json hub call`', 'token [secret] ok'],
  ['`hub exec`', 'token [secret] ok'],
  ['`hub doctor`', 'source enc'],
  ['`hub auth` output', 'Stored the secret for enc'],
  ['MCP over HTTP (`serve --http`)', 'encoding-secret: raw [secret] | base64 [secret]'],
  ['`hub serve`’s stderr (stdio and HTTP)', ''],
  ['the page host’s pages.log', ''],
  ['the journal (hub.db and its WAL)', 'token [secret] was rejected'],
];

describeSecrets({
  name: 'local',
  secret: SECRET,
  channels: CHANNELS,
  read: (channel) => channels.get(channel),
  split: () => split,
});

describe('an OAuth source: a token refreshed mid-run, and the plan of `push`', { timeout: 180_000 }, () => {
  let board: OAuthBoard;
  let at: { home: string; remove(): void };
  /** Every token the board issued, in every encoding. */
  const tokenForms = () =>
    [...board.accessTokens, ...board.refreshTokens].flatMap((token) => forbidden(token));
  beforeAll(async () => {
    board = await startOAuthBoard();
    at = hubHome();
    expect(cli(at.home, ['hub', 'init']).status).toBe(0);
    const opener = browser(at.home);
    const add = runCli(at.home, ['hub', 'add', board.url, '--namespace', 'board', '--yes'], opener.env);
    const back = await board.decide(await opener.opened(add), 'allow');
    expect(await (await fetch(back)).text()).toContain('Signed in');
    expect((await add).status).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await board?.close();
    at?.remove();
  });

  it('the token the run itself refreshed, echoed back, is in no result, run history or journal', async () => {
    // The token expires (the board's clock and the hub's record both say so) after the run
    // began: its first call refreshes it inside the run, and the board echoes the new token.
    board.expireAll();
    const secrets = new EnvFileSecretStore(homePaths({ CAPABILITIES_HOME: at.home }).envFile);
    const key = secretKey('board', 'default', 'oauth');
    const grant = JSON.parse((await secrets.get(key)) ?? '{}') as Record<string, unknown>;
    await secrets.set(key, JSON.stringify({ ...grant, expires_at: Date.now() - 1_000 }));
    const code = `const seen = await board.whoami({});
      return { seen, codes: Array.from(JSON.stringify(seen), (c) => c.charCodeAt(0)) };`;
    const run = await runCli(at.home, ['--json', 'hub', 'exec', code]);
    expect(run.status, run.stdout).toBe(0);
    expect(board.issued.refresh_token).toBe(1);
    const { runId, result } = JSON.parse(run.stdout) as { runId: string; result: { codes: number[] } };
    const read = [
      run.stdout,
      run.stderr,
      String.fromCharCode(...result.codes),
      (await runCli(at.home, ['--json', 'hub', 'runs', 'show', runId])).stdout,
      ['hub.db', 'hub.db-wal'].map((f) => readIfExists(join(at.home, 'hub', f))).join('\n'),
    ].join('\n');
    expect(read).toContain('Bearer [secret]');
    for (const { name, value } of tokenForms()) expect(read, name).not.toContain(value);
  });

  it('the plan of `push` (plain, `--json`, `--secrets`) names the connection, never a token', async () => {
    const hosted = await startHostedStandin(at.home);
    try {
      const paths = homePaths({ CAPABILITIES_HOME: at.home });
      writeHostedFile(paths.hostedFile, {
        url: hosted.url,
        client: { client_id: 'i1-push' },
        signedInAt: new Date().toISOString(),
      });
      await writeHostedTokens(new EnvFileSecretStore(paths.envFile), {
        access_token: HOSTED_TOKEN,
        token_type: 'bearer',
        expires_at: Date.now() + 60 * 60 * 1000,
        hub: hosted.url,
      });
      const plans = await Promise.all([
        runCli(at.home, ['--no-input', 'hub', 'push']),
        runCli(at.home, ['--json', 'hub', 'push']),
        runCli(at.home, ['--json', 'hub', 'push', '--secrets']),
      ]);
      const read = plans.map((plan) => `${plan.stdout}\n${plan.stderr}`).join('\n');
      expect(read).toContain('connection board/default (default): add');
      for (const { name, value } of tokenForms()) expect(read, name).not.toContain(value);
      expect(read).not.toContain(HOSTED_TOKEN);
    } finally {
      await hosted.close();
    }
  });
});
