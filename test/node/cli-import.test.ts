/**
 * `capabilities hub import --dry-run` as a person runs it: bin/capabilities in a subprocess with
 * a fixture folder as HOME and the fixture project as the working folder. It prints what each
 * harness holds and the proposed namespaces, never a secret value, and creates nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, type CliResult, cliEnv, REPO, tempHome } from './cli-process.ts';

const LINUX = join(REPO, 'test/fixtures/harnesses/linux');
const SECRETS = [
  'ghp_fixture',
  'ntn_fixture',
  'hunter2',
  'exa-fixture',
  'fc-fixture',
  'tvly-fixture',
  'xoxb-fixture',
  'sntrys_fixture',
  'ctx7sk-fixture',
];

let home: string;
let remove: () => void;
beforeEach(() => {
  ({ home, remove } = tempHome());
});
afterEach(() => remove());

function importDry(args: readonly string[]): CliResult {
  const {
    CODEX_HOME: _codex,
    CLAUDE_CONFIG_DIR: _claude,
    XDG_CONFIG_HOME: _xdg,
    HERMES_HOME: _hermes,
    PI_CODING_AGENT_DIR: _pi,
    ...env
  } = cliEnv(join(home, 'capabilities'), { HOME: join(LINUX, 'home') });
  const result = spawnSync(BIN, ['hub', 'import', ...args], {
    cwd: join(LINUX, 'project'),
    env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (result.error) throw result.error;
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

describe('hub import --dry-run', () => {
  it('prints each harness and the proposed namespaces, no secret, and creates no hub', () => {
    const text = importDry(['--dry-run']);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain('claude-code: 7 servers, 3 skills');
    expect(text.stdout).toMatch(/^ {2}github {2}stdio {2}npx -y @modelcontextprotocol\/server-github$/m);
    expect(text.stdout).toContain(
      'from claude-code:github, claude-desktop:GitHub, codex:github, cursor:github, hermes:github',
    );
    expect(text.stdout).toContain('GITHUB_PERSONAL_ACCESS_TOKEN (env, to the secret store)');
    expect(text.stdout).toContain("5 skills found; the import adds each skill folder to the hub's skills.");
    for (const secret of SECRETS) expect(text.stdout + text.stderr).not.toContain(secret);
    expect(existsSync(join(home, 'capabilities'))).toBe(false);
  });

  it('--json: one object with the harnesses and the plan, no secret', () => {
    const json = importDry(['--dry-run', '--from', 'codex', 'cursor']);
    expect(json.status, json.stderr).toBe(0);
    const asJson = importDry(['--dry-run', '--from', 'codex,cursor']);
    expect(asJson.stdout).toBe(json.stdout);
    const data = importDry(['--dry-run', '--json', '--from', 'codex', 'cursor']);
    const parsed = JSON.parse(data.stdout) as {
      harnesses: { harness: string; servers: string[] }[];
      plan: { items: { namespace: string }[] };
    };
    expect(parsed.harnesses.map((h) => h.harness)).toEqual(['codex', 'cursor']);
    expect(parsed.plan.items.map((i) => i.namespace)).toEqual([
      'exa',
      'figma',
      'github',
      'linear',
      'notion',
      'context7',
      'firecrawl',
      'tavily_remote',
      'docs',
    ]);
    for (const secret of SECRETS) expect(data.stdout).not.toContain(secret);
  });

  it('refuses an unknown harness, and an import into a hub that does not exist (it never creates one)', () => {
    const unknown = importDry(['--dry-run', '--from', 'emacs']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('--from takes claude-code, claude-desktop, codex');
    const apply = importDry(['--yes']);
    expect(apply.status).toBe(1);
    expect(apply.stderr).toContain('create it and import in one step with `capabilities hub init --import`');
  });
});
