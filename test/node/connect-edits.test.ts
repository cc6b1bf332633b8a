/**
 * The two config editors connect uses, on the shapes harness files come in: empty, `{}`, an
 * empty servers table, tabs and CRLF, Codex's servers as an inline table, an old entry with
 * comments around it, and the removal of another entry (`connect --replace`) with the comments
 * around it. Exact strings, so the tests say what a person's file looks like after.
 */
import { describe, expect, it } from 'vitest';
import { openJsonConfig } from '../../local/connect/config-json.ts';
import { openTomlConfig } from '../../local/connect/config-toml.ts';

const entry = { command: '/opt/capabilities/bin/capabilities', args: ['hub', 'serve'] };
const jsonc = (text: string) => openJsonConfig('mcp.json', text, true, 'mcpServers', 'capabilities');
const toml = (text: string) => openTomlConfig('config.toml', text, 'mcp_servers', 'capabilities');

describe('the JSON editor', () => {
  it('fills an empty file, `{}` and an empty servers object with the entry laid out, two spaces by default', () => {
    const laidOut = [
      '{',
      '  "mcpServers": {',
      '    "capabilities": {',
      '      "command": "/opt/capabilities/bin/capabilities",',
      '      "args": [',
      '        "hub",',
      '        "serve"',
      '      ]',
      '    }',
      '  }',
      '}',
      '',
    ].join('\n');
    expect(jsonc('').withEntry(entry)).toBe(laidOut);
    expect(jsonc('{}\n').withEntry(entry)).toBe(laidOut);
    expect(jsonc('{\n  "mcpServers": {}\n}\n').withEntry(entry)).toBe(laidOut);
  });

  it("keeps the file's tabs and CRLF, and removing the entry gives the bytes back", () => {
    const text = '{\r\n\t"a": 1\r\n}\r\n';
    const added = jsonc(text).withEntry(entry);
    expect(added).toBe(
      '{\r\n\t"a": 1,\r\n\t"mcpServers": {\r\n\t\t"capabilities": {\r\n\t\t\t"command": "/opt/capabilities/bin/capabilities",\r\n\t\t\t"args": [\r\n\t\t\t\t"hub",\r\n\t\t\t\t"serve"\r\n\t\t\t]\r\n\t\t}\r\n\t}\r\n}\r\n',
    );
    expect(jsonc(added).withoutEntry()).toBe(text);
  });

  it('keeps a file on one line on one line', () => {
    const text = '{"mcpServers":{"x":{"command":"y"}}}';
    const added = jsonc(text).withEntry(entry);
    expect(added).toBe(
      '{"mcpServers":{"x":{"command":"y"},"capabilities": {"command":"/opt/capabilities/bin/capabilities","args":["hub","serve"]}}}',
    );
    expect(jsonc(added).withoutEntry()).toBe(text);
  });

  it('removes a first entry with its lines, keeping the next one on a line of its own', () => {
    const text =
      '{\n\t"mcpServers": {\n\t\t// mine\n\t\t"a": { "command": "x" },\n\t\t"b": { "url": "https://b" }, // b\n\t},\n}\n';
    const open = (name: string) => openJsonConfig('mcp.json', text, true, 'mcpServers', name);
    expect(open('a').withoutEntry()).toBe(
      '{\n\t"mcpServers": {\n\t\t"b": { "url": "https://b" }, // b\n\t},\n}\n',
    );
    expect(open('b').withoutEntry()).toBe(
      '{\n\t"mcpServers": {\n\t\t// mine\n\t\t"a": { "command": "x" }, // b\n\t},\n}\n',
    );
  });

  it('refuses comments in a strict JSON file, and servers that are not an object', () => {
    expect(() =>
      openJsonConfig('.claude.json', '{\n  // no\n}', false, 'mcpServers', 'capabilities'),
    ).toThrow('.claude.json is not valid JSON: InvalidCommentToken at line 2, column 3');
    expect(() => jsonc('{ "mcpServers": [] }')).toThrow('mcp.json: "mcpServers" is not a table of servers');
  });
});

describe('the TOML editor', () => {
  it('appends the table as `codex mcp add` does, keeping CRLF, and removes it again', () => {
    expect(toml('').withEntry({ ...entry, env: { CAPABILITIES_HOME: '/tmp/hub' } })).toBe(
      [
        '[mcp_servers.capabilities]',
        'command = "/opt/capabilities/bin/capabilities"',
        'args = ["hub", "serve"]',
        '',
        '[mcp_servers.capabilities.env]',
        'CAPABILITIES_HOME = "/tmp/hub"',
        '',
      ].join('\n'),
    );
    const text = 'model = "o3"\r\n';
    const added = toml(text).withEntry(entry);
    expect(added).toBe(
      'model = "o3"\r\n\r\n[mcp_servers.capabilities]\r\ncommand = "/opt/capabilities/bin/capabilities"\r\nargs = ["hub", "serve"]\r\n',
    );
    expect(toml(added).withoutEntry()).toBe(text);
  });

  it('adds to servers kept as an inline table inside that table', () => {
    const text = 'mcp_servers = { other = { command = "y" } }\n';
    const added = toml(text).withEntry(entry);
    expect(added).toBe(
      'mcp_servers = { other = { command = "y" }, capabilities = { command = "/opt/capabilities/bin/capabilities", args = [ "hub", "serve" ] } }\n',
    );
    expect(toml(added).withoutEntry()).toBe(text);
  });

  it("removes an entry's own tables, keeping the comments before it and before the next table", () => {
    const text = [
      '# top',
      'model = "o3"',
      '',
      '# the board',
      '[mcp_servers.board]',
      'command = "node" # inline',
      '',
      '[mcp_servers.board.env]',
      'A = "1"',
      '',
      '# docs',
      '[mcp_servers.docs]',
      'url = "https://d"',
      '',
    ].join('\n');
    const board = openTomlConfig('config.toml', text, 'mcp_servers', 'board');
    expect(board.withoutEntry()).toBe(
      [
        '# top',
        'model = "o3"',
        '',
        '# the board',
        '',
        '# docs',
        '[mcp_servers.docs]',
        'url = "https://d"',
        '',
      ].join('\n'),
    );
  });

  it('replaces an old entry in place, keeping its comments and the tables after it', () => {
    const text = '[mcp_servers.capabilities]\n# mine\ncommand = "/old" # old\nargs = []\n\n[x]\na = 1\n';
    expect(toml(text).withEntry(entry)).toBe(
      '[mcp_servers.capabilities]\n# mine\ncommand = "/opt/capabilities/bin/capabilities" # old\nargs = ["hub", "serve"]\n\n[x]\na = 1\n',
    );
  });
});
