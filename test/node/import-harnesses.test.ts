/**
 * The importer's readers on realistic fixture folders used as HOME (test/fixtures/harnesses):
 * every harness's paths and formats, the odd cases found in the wild (Windows paths in a copied
 * config, `type` spelled three ways or absent, `disabled`, references in each harness's syntax,
 * project-scoped servers), CODEX_HOME, macOS vs Linux, and errors that name the file and line
 * while the other files and harnesses still read.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FoundServer, HarnessId } from '../../local/import/found.ts';
import type { HarnessFiles } from '../../local/import/harness-files.ts';
import { nodeHarnessFiles } from '../../local/import/node-files.ts';
import { readHarnesses } from '../../local/import/read-harnesses.ts';

const FIXTURES = join(import.meta.dirname, '../fixtures/harnesses');
const LINUX = join(FIXTURES, 'linux');

function files(
  overrides: Partial<Pick<HarnessFiles, 'home' | 'cwd' | 'env' | 'platform'>> = {},
): HarnessFiles {
  return nodeHarnessFiles({
    home: join(LINUX, 'home'),
    cwd: join(LINUX, 'project'),
    env: {},
    platform: 'linux',
    ...overrides,
  });
}

function report(harness: HarnessId, f: HarnessFiles = files()) {
  const found = readHarnesses(f, [harness]).harnesses[0];
  if (!found) throw new Error(`no report for ${harness}`);
  return found;
}

function byName(servers: readonly FoundServer[], name: string): FoundServer {
  const server = servers.find((s) => s.name === name);
  if (!server) throw new Error(`no server ${name} in ${servers.map((s) => s.name).join(', ')}`);
  return server;
}

describe('Claude Code', () => {
  const r = report('claude-code');
  const home = join(LINUX, 'home');
  const project = join(LINUX, 'project');

  it('reads user scope, every project entry in ~/.claude.json, and the project .mcp.json', () => {
    expect(r.filesRead).toEqual([join(home, '.claude.json'), join(project, '.mcp.json')]);
    expect(r.errors).toEqual([]);
    expect(r.servers.map((s) => [s.name, s.scope, s.project])).toEqual([
      ['github', 'user', undefined],
      ['linear', 'user', undefined],
      ['context7', 'user', undefined],
      ['postgres', 'local', '/home/ada/work/shop'],
      ['filesystem', 'local', 'C:\\Users\\ada\\work\\legacy'],
      ['sentry', 'project', project],
      ['playwright', 'project', project],
    ]);
  });

  it('keeps transports as written: stdio with env, http with headers, sse, a Windows command', () => {
    expect(byName(r.servers, 'github').transport).toEqual({
      kind: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_fixtureNotARealToken00000000000001' },
      cwd: undefined,
    });
    expect(byName(r.servers, 'linear').transport).toEqual({
      kind: 'http',
      url: 'https://mcp.linear.app/mcp',
      headers: { Authorization: `Bearer \${LINEAR_API_KEY}` },
    });
    expect(byName(r.servers, 'sentry').transport).toMatchObject({
      kind: 'sse',
      url: 'https://mcp.sentry.dev/sse',
    });
    expect(byName(r.servers, 'filesystem').transport).toMatchObject({
      command: 'C:\\Program Files\\nodejs\\npx.cmd',
    });
    expect(byName(r.servers, 'github').interpolation).toBe('braces-default');
  });

  it('counts its skills once each, a symlinked folder by its real path', () => {
    // ~/.claude/skills/{commit, pdf → ~/.agents/skills/pdf} and the project's release.
    expect(r.skills).toBe(3);
    expect(r.skillPaths).toContain(join(home, '.agents/skills/pdf'));
  });

  it('honours CLAUDE_CONFIG_DIR', () => {
    const elsewhere = report('claude-code', files({ env: { CLAUDE_CONFIG_DIR: join(LINUX, 'nowhere') } }));
    expect(elsewhere.filesRead).toEqual([join(project, '.mcp.json')]);
  });
});

describe('Claude Desktop', () => {
  it('reads ~/.config/Claude on Linux', () => {
    const r = report('claude-desktop');
    expect(r.filesRead).toEqual([join(LINUX, 'home/.config/Claude/claude_desktop_config.json')]);
    expect(r.servers.map((s) => s.name)).toEqual(['GitHub', '@modelcontextprotocol/server-memory']);
    expect(r.servers.every((s) => s.interpolation === 'none' && s.scope === 'user')).toBe(true);
  });

  it('reads ~/Library/Application Support/Claude on macOS, not the Linux place', () => {
    const home = join(FIXTURES, 'macos/home');
    const r = report('claude-desktop', files({ home, platform: 'darwin' }));
    expect(r.filesRead).toEqual([
      join(home, 'Library/Application Support/Claude/claude_desktop_config.json'),
    ]);
    expect(r.servers.map((s) => s.name)).toEqual(['filesystem']);
  });

  it('honours XDG_CONFIG_HOME on Linux', () => {
    const home = join(FIXTURES, 'macos/home');
    const r = report(
      'claude-desktop',
      files({ home, env: { XDG_CONFIG_HOME: join(LINUX, 'home/.config') } }),
    );
    expect(r.servers.map((s) => s.name)).toEqual(['GitHub', '@modelcontextprotocol/server-memory']);
  });
});

describe('Codex', () => {
  const r = report('codex');

  it('reads [mcp_servers.*] from ~/.codex/config.toml, comments and inline tables included', () => {
    expect(r.filesRead).toEqual([join(LINUX, 'home/.codex/config.toml')]);
    expect(r.servers.map((s) => s.name)).toEqual(['github', 'notion', 'linear', 'exa', 'figma']);
    expect(byName(r.servers, 'notion').transport).toMatchObject({
      env: { NOTION_TOKEN: 'ntn_fixtureNotARealToken0000000000000', LOG_LEVEL: 'warn' },
    });
  });

  it(`turns env_vars, bearer_token_env_var and env_http_headers into \${VAR} references`, () => {
    expect(byName(r.servers, 'github').transport).toMatchObject({
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: `\${GITHUB_PERSONAL_ACCESS_TOKEN}` },
    });
    expect(byName(r.servers, 'linear').transport).toEqual({
      kind: 'http',
      url: 'https://mcp.linear.app/mcp',
      headers: { Authorization: `Bearer \${LINEAR_API_KEY}` },
    });
    expect(byName(r.servers, 'figma').transport).toMatchObject({
      headers: { 'X-Figma-Region': 'us-east-1', 'X-Figma-Token': `\${FIGMA_API_KEY}` },
    });
  });

  it('reads enabled = false as disabled, and names an entry with no transport', () => {
    expect(byName(r.servers, 'exa').disabled).toBe(true);
    expect(byName(r.servers, 'github').disabled).toBe(false);
    expect(r.errors).toEqual([
      {
        file: join(LINUX, 'home/.codex/config.toml'),
        entry: 'broken',
        message: '[mcp_servers.broken] has neither "command" nor "url"; it was skipped',
      },
    ]);
  });

  it('reads $CODEX_HOME/config.toml instead when CODEX_HOME is set', () => {
    const codexHome = join(LINUX, 'codex-home');
    const elsewhere = report('codex', files({ env: { CODEX_HOME: codexHome } }));
    expect(elsewhere.filesRead).toEqual([join(codexHome, 'config.toml')]);
    expect(elsewhere.servers.map((s) => s.name)).toEqual(['sequential-thinking']);
  });

  it('counts ~/.agents/skills', () => {
    expect(r.skills).toBe(1);
  });
});

describe('Cursor', () => {
  const r = report('cursor');
  const project = join(LINUX, 'project');

  it('reads ~/.cursor/mcp.json (comments, trailing commas) and the project .cursor/mcp.json', () => {
    expect(r.errors).toEqual([]);
    expect(r.servers.map((s) => [s.name, s.scope])).toEqual([
      ['github', 'user'],
      ['firecrawl-mcp', 'user'],
      ['context7', 'user'],
      ['tavily-remote', 'user'],
      ['docs', 'project'],
    ]);
  });

  it('reads url alone and type "streamable-http" as Streamable HTTP, and disabled: true', () => {
    expect(byName(r.servers, 'context7').transport.kind).toBe('http');
    expect(byName(r.servers, 'tavily-remote').transport.kind).toBe('http');
    expect(byName(r.servers, 'firecrawl-mcp').disabled).toBe(true);
    expect(byName(r.servers, 'github').interpolation).toBe('env-colon');
  });

  it(`fills Cursor's own \${workspaceFolder} and \${userHome}`, () => {
    expect(byName(r.servers, 'docs').transport).toMatchObject({
      args: [`${project}/tools/docs-server.js`, '--root', `${join(LINUX, 'home')}/notes`],
    });
  });

  it('counts skills in .claude, .agents and .cursor folders once each', () => {
    expect(r.skills).toBe(3);
  });
});

describe('Gemini CLI', () => {
  const r = report('gemini');

  it('reads JSONC settings: httpUrl is HTTP, url alone is SSE, url with type is what type says', () => {
    expect(r.errors).toEqual([]);
    expect(byName(r.servers, 'deepwiki').transport.kind).toBe('http');
    expect(byName(r.servers, 'legacy-events').transport.kind).toBe('sse');
    expect(byName(r.servers, 'typed').transport.kind).toBe('http');
    expect(byName(r.servers, 'brave-search').interpolation).toBe('dollar');
  });
});

describe('VS Code', () => {
  it('reads the Linux profile mcp.json (key servers, JSONC) and the workspace .vscode/mcp.json', () => {
    const r = report('vscode');
    expect(r.errors).toEqual([]);
    expect(r.servers.map((s) => [s.name, s.scope, s.transport.kind])).toEqual([
      ['github-remote', 'user', 'http'],
      ['memory', 'user', 'stdio'],
      ['mongodb', 'project', 'stdio'],
    ]);
  });

  it('reads the macOS profile under Library/Application Support', () => {
    const home = join(FIXTURES, 'macos/home');
    const r = report('vscode', files({ home, platform: 'darwin' }));
    expect(r.filesRead[0]).toBe(join(home, 'Library/Application Support/Code/User/mcp.json'));
    expect(r.servers.map((s) => s.name)).toEqual(['playwright', 'mongodb']);
  });
});

describe('Windsurf, Antigravity, Hermes, pi', () => {
  it('Windsurf: serverUrl is a remote server', () => {
    const r = report('windsurf');
    expect(byName(r.servers, 'userjot').transport).toMatchObject({
      kind: 'http',
      url: 'https://api.userjot.com/v1/mcp',
    });
    expect(byName(r.servers, 'mcp-server-slack').disabled).toBe(false);
  });

  it('Antigravity: both places are read, a symlink to the other counted once', () => {
    const r = report('antigravity');
    expect(r.filesRead).toEqual([join(LINUX, 'home/.gemini/antigravity/mcp_config.json')]);
    expect(r.servers.map((s) => s.name)).toEqual(['sentry']);
    expect(byName(r.servers, 'sentry').transport).toMatchObject({ url: 'https://mcp.sentry.dev/mcp' });
  });

  it('Hermes: YAML mcp_servers, a legacy string of args, enabled: false, HERMES_HOME', () => {
    const r = report('hermes');
    expect(r.servers.map((s) => s.name)).toEqual(['github', 'kubernetes', 'linear']);
    expect(byName(r.servers, 'kubernetes')).toMatchObject({
      disabled: true,
      transport: { args: ['-y', 'mcp-server-kubernetes'] },
    });
    expect(r.skills).toBe(1);
    expect(report('hermes', files({ env: { HERMES_HOME: join(LINUX, 'nowhere') } })).filesRead).toEqual([]);
  });

  it('pi: ~/.pi/agent/mcp.json, enabled: false, and a skill as a direct .md file', () => {
    const r = report('pi');
    expect(r.servers.map((s) => [s.name, s.disabled])).toEqual([
      ['memory', false],
      ['tavily', true],
    ]);
    // ~/.pi/agent/skills/review.md and ~/.agents/skills/pdf.
    expect(r.skills).toBe(2);
  });
});

describe('every harness at once', () => {
  it('counts a skill folder read by several harnesses once', () => {
    const scan = readHarnesses(files());
    // commit, pdf (also via the symlink), release, deploy, review.
    expect(scan.distinctSkills).toBe(5);
    expect(scan.harnesses.map((h) => h.harness)).toEqual([
      'claude-code',
      'claude-desktop',
      'codex',
      'cursor',
      'gemini',
      'vscode',
      'windsurf',
      'antigravity',
      'hermes',
      'pi',
    ]);
  });
});

describe('bad files', () => {
  const home = join(FIXTURES, 'broken/home');
  const scan = readHarnesses(files({ home, cwd: join(FIXTURES, 'broken/nowhere') }));
  const errors = (harness: HarnessId) => scan.harnesses.find((h) => h.harness === harness)?.errors;

  it('names the file and the line of invalid JSON, TOML and YAML', () => {
    expect(errors('claude-code')).toEqual([
      {
        file: join(home, '.claude.json'),
        line: 4,
        message: expect.stringMatching(/^not valid JSON \(CommaExpected\)/),
      },
    ]);
    expect(errors('codex')).toEqual([
      {
        file: join(home, '.codex/config.toml'),
        line: expect.any(Number),
        message: expect.stringMatching(/^not valid TOML/),
      },
    ]);
    expect(errors('hermes')).toEqual([
      { file: join(home, '.hermes/config.yaml'), line: 4, message: expect.stringMatching(/^not valid YAML/) },
    ]);
  });

  it('still reads the other files and harnesses, and names an entry with no transport', () => {
    expect(scan.harnesses.find((h) => h.harness === 'cursor')?.servers.map((s) => s.name)).toEqual([
      'memory',
    ]);
    const gemini = scan.harnesses.find((h) => h.harness === 'gemini');
    expect(gemini?.servers.map((s) => s.name)).toEqual(['memory']);
    expect(gemini?.errors).toEqual([
      {
        file: join(home, '.gemini/settings.json'),
        entry: 'nothing',
        message: 'server "nothing" has neither "command" nor "httpUrl" nor "url"; it was skipped',
      },
    ]);
  });

  it('reports a file it may not read (EACCES) as that file’s error', () => {
    const real = files();
    const locked: HarnessFiles = {
      ...real,
      readFile(path) {
        if (path.endsWith('.claude.json')) {
          throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES' });
        }
        return real.readFile(path);
      },
    };
    const r = report('claude-code', locked);
    expect(r.errors).toEqual([
      { file: join(LINUX, 'home/.claude.json'), message: 'cannot be read (EACCES); check its permissions' },
    ]);
    expect(r.servers.map((s) => s.name)).toEqual(['sentry', 'playwright']);
  });
});

describe('Codex project config', () => {
  it('reads <project>/.codex/config.toml only when the user config trusts that project', () => {
    const texts: Record<string, string> = {
      '/h/.codex/config.toml': '[projects."/p"]\ntrust_level = "trusted"\n',
      '/p/.codex/config.toml': '[mcp_servers.local]\ncommand = "./bin/server"\n',
      '/q/.codex/config.toml': '[mcp_servers.untrusted]\ncommand = "./bin/server"\n',
    };
    const fake = (cwd: string): HarnessFiles => ({
      home: '/h',
      cwd,
      env: {},
      platform: 'linux',
      readFile: (path) => texts[path],
      listDir: () => [],
      realpath: (path) => path,
    });
    expect(report('codex', fake('/p')).servers.map((s) => [s.name, s.scope])).toEqual([['local', 'project']]);
    expect(report('codex', fake('/q')).servers).toEqual([]);
  });
});
