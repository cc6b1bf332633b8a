/**
 * `capabilities hub profiles` and the endpoints it names, through real processes: a profile that
 * names a namespace, tool or skill the hub does not hold is refused with what exists and how to
 * list it, and nothing is stored; a name that exists is a conflict; `default` can be edited but
 * never removed; `show` says what is visible now; `serve --stdio --profile` of an unknown
 * profile is an error naming `hub profiles list`; `serve --http` serves each profile at
 * /mcp/<name> (an unknown one is a 404 saying how to list them); `connect --profile` writes the
 * harness entry for that profile, and refuses an unknown one without writing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { parse as parseJsonc } from 'jsonc-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, hubHome, runCli, startServe } from './cli-process.ts';
import { fixtureHome } from './connect-fixtures.ts';
import { type SkillFolders, skillFolders, skillMd } from './skill-folders.ts';
import { addSources } from './surface-fixture.ts';

let home: string;
let remove: () => void;
let folders: SkillFolders;
const cleanups: (() => Promise<unknown> | undefined)[] = [];
beforeEach(() => {
  ({ home, remove } = hubHome());
  folders = skillFolders();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  folders.remove();
  remove();
});

const hub = (args: string[]) => runCli(home, ['hub', ...args]);
async function ok(args: string[]) {
  const result = await hub(args);
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

/** `hub profiles list --json`'s profiles by name and mode. */
async function profiles(): Promise<[string, string][]> {
  const result = await runCli(home, ['--json', 'hub', 'profiles', 'list']);
  expect(result.status, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { profiles: { name: string; mode: string }[] }).profiles.map((p) => [
    p.name,
    p.mode,
  ]);
}

describe('hub profiles', () => {
  it('refuses names the hub does not hold, saying what exists and how to list it, and stores nothing', async () => {
    addSources(home);
    await ok([
      'skills',
      'add',
      folders.write('pdf-forms', { 'SKILL.md': skillMd('pdf-forms', 'Fill in PDF forms.') }),
    ]);
    expect(await profiles()).toEqual([['default', 'code']]);

    const cases: [string[], RegExp][] = [
      [
        ['--namespaces', 'memroy'],
        /no namespace "memroy" \(did you mean "memory"\?\); namespaces: board, memory\. To see them, list sources with `capabilities hub list`/,
      ],
      [
        ['--tools', 'board.psot'],
        /no tool "board\.psot" \(did you mean "board\.post"\?\); board's tools: board\.list_posts, board\.post, board\.slow_post/,
      ],
      [
        ['--tools', 'nothere.post'],
        /no tool "nothere\.post": no namespace "nothere" with tools; namespaces: board, memory/,
      ],
      [
        ['--skills', 'pdf-form'],
        /no skill "pdf-form" \(did you mean "pdf-forms"\?\); skills: pdf-forms\. List them with `capabilities hub skills list`\./,
      ],
      [
        ['--namespaces', 'memory', '--tools', 'board.post'],
        /board\.post is in namespace board, which this profile does not show/,
      ],
      [['--mode', 'both'], /a mode is "code"/],
    ];
    for (const [flags, message] of cases) {
      const refused = await hub(['profiles', 'create', 'writer', ...flags]);
      expect(refused.status, flags.join(' ')).not.toBe(0);
      expect(refused.stderr, flags.join(' ')).toMatch(message);
    }
    const badName = await hub(['profiles', 'create', 'Writer Two']);
    expect(badName.stderr).toMatch(/"Writer Two" is not a profile name/);
    expect(await profiles()).toEqual([['default', 'code']]);

    // A good one, then the same name again: a conflict, and the first is kept.
    await ok(['profiles', 'create', 'writer', '--mode', 'direct', '--tools', 'board.post,memory.read_graph']);
    const again = await hub(['profiles', 'create', 'writer']);
    expect(again.status).not.toBe(0);
    expect(again.stderr).toMatch(/a profile named writer already exists/);
    expect(await profiles()).toEqual([
      ['default', 'code'],
      ['writer', 'direct'],
    ]);

    // show: what is visible now, and where it is served.
    const shown = await ok(['profiles', 'show', 'writer']);
    expect(shown).toContain('writer  direct mode');
    expect(shown).toMatch(
      /Visible now: 2 tools, 1 skill\n {2}board\.post\n {2}memory\.read_graph\n {2}skill:pdf-forms/,
    );
    expect(shown).toContain('capabilities hub serve --stdio --profile writer');

    // An edit that names something missing changes nothing.
    const badEdit = await hub(['profiles', 'edit', 'writer', '--tools', 'board.nope']);
    expect(badEdit.status).not.toBe(0);
    expect(await ok(['profiles', 'show', 'writer'])).toContain('Visible now: 2 tools');

    // default: edited (mode and curation), never removed; others are removed.
    const refusedDefault = await hub(['profiles', 'remove', 'default']);
    expect(refusedDefault.status).not.toBe(0);
    expect(refusedDefault.stderr).toMatch(/the default profile cannot be removed/);
    await ok(['profiles', 'edit', 'default', '--skills', 'none']);
    expect(await ok(['profiles', 'show', 'default'])).toMatch(
      /skills: none[\s\S]*Visible now: \d+ tools, 0 skills/,
    );
    await ok(['profiles', 'edit', 'default', '--skills', 'all']);
    await ok(['profiles', 'remove', 'writer']);
    expect(await profiles()).toEqual([['default', 'code']]);
    const gone = await hub(['profiles', 'show', 'writer']);
    expect(gone.stderr).toMatch(
      /no profile "writer"; profiles: default\. List them with `capabilities hub profiles list`\./,
    );
  }, 120_000);

  it('serve takes any profile: an unknown one is an error naming `hub profiles list`; /mcp/<name> on --http', async () => {
    addSources(home);
    const unknown = await hub(['serve', '--stdio', '--profile', 'nope']);
    expect(unknown.status).not.toBe(0);
    expect(unknown.stderr).toMatch(
      /no profile "nope"; profiles: default\. List them with `capabilities hub profiles list`\./,
    );

    await ok(['profiles', 'create', 'writer', '--mode', 'direct', '--tools', 'board.post']);
    const served = await startServe(home);
    cleanups.push(() => served.stop());
    const token = readFileSync(served.tokenFile, 'utf8').trim();
    const toolsAt = async (path: string) => {
      const client = new Client(
        { name: 'profiles-http', version: '1.0.0' },
        { versionNegotiation: { mode: 'auto' } },
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(path, served.url), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      try {
        // Stateless HTTP has no channel for a notification: each request reads the store as it
        // is, and no endpoint promises a list_changed it cannot send.
        expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
        return (await client.listTools()).tools.map((t) => t.name);
      } finally {
        await client.close();
      }
    };
    expect(await toolsAt('/mcp')).toEqual(['search', 'describe', 'execute']);
    expect(await toolsAt('/mcp/default')).toEqual(['search', 'describe', 'execute']);
    expect(await toolsAt('/mcp/writer')).toEqual(['board.post']);
    // An edit shows on the next request, at the same endpoint; a change of mode too.
    await ok(['profiles', 'edit', 'writer', '--tools', 'board.post,board.list_posts']);
    expect((await toolsAt('/mcp/writer')).sort()).toEqual(['board.list_posts', 'board.post']);
    await ok(['profiles', 'edit', 'writer', '--mode', 'code']);
    expect(await toolsAt('/mcp/writer')).toEqual(['search', 'describe', 'execute']);
    await ok(['profiles', 'edit', 'writer', '--mode', 'direct', '--tools', 'board.post']);
    const malformed = await fetch(new URL('/mcp/%E0%A4%A', served.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(malformed.status).toBe(404);
    const missing = await fetch(new URL('/mcp/nope', served.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toMatch(/no profile \\"nope\\"; profiles: default, writer/);
    const noToken = await fetch(new URL('/mcp/writer', served.url), { method: 'POST', body: '{}' });
    expect(noToken.status).toBe(401);
  }, 120_000);

  it('connect --profile writes the entry for that profile, and refuses an unknown one without writing', async () => {
    const fixture = fixtureHome(['cursor']);
    cleanups.push(async () => fixture.remove());
    const env = {
      HOME: fixture.home,
      CODEX_HOME: join(fixture.home, '.codex'),
      XDG_CONFIG_HOME: join(fixture.home, '.config'),
    };
    const run = (args: string[]) => runCli(fixture.hub, args, env);
    const connect = (profile: string) =>
      run(['hub', 'connect', '--checkout', '--client', 'cursor', '--yes', '--profile', profile]);
    expect((await run(['hub', 'init'])).status).toBe(0);
    const before = fixture.read(fixture.files.cursor);
    const refused = await connect('nope');
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/no profile "nope".*`capabilities hub profiles list`/);
    expect(fixture.read(fixture.files.cursor)).toBe(before);

    const created = await run(['hub', 'profiles', 'create', 'focused', '--skills', 'none']);
    expect(created.status, created.stderr).toBe(0);
    const connected = await connect('focused');
    expect(connected.status, connected.stderr).toBe(0);
    const cursor = parseJsonc(fixture.read(fixture.files.cursor)) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    expect(cursor.mcpServers.capabilities).toMatchObject({
      command: BIN,
      args: ['hub', 'serve', '--stdio', '--profile', 'focused'],
    });
  }, 60_000);
});
