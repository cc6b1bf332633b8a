/**
 * I8, "The model cannot change configuration" (spec: Security and approvals: "Configuration is
 * not a tool either. No MCP tool can add sources, change connections, edit policies or decide
 * approvals, so a prompt-injected model cannot grant itself access"), as one suite of the attacks
 * both hosts face through MCP, with two runners: test/invariants/i8-configuration.test.ts (a local
 * hub the CLI made, its clients over stdio and HTTP, QuickJS guests) and
 * test/invariants/i8-configuration.workers.test.ts (an agent's MCP token on the hosted hub,
 * Worker Loader guests). Each runner adds the ways in only its host has. After every attack the
 * runner's `unchanged` holds that the configuration is what it was and no answer held what the
 * hub keeps to itself.
 *
 * | Way in           | Attack                                                                          | Held                          |
 * | ---------------- | ------------------------------------------------------------------------------- | ----------------------------- |
 * | MCP, every client | list the tools and the server's capabilities                                  | search/describe/execute; no prompt |
 * | MCP execute code | every global and every `hub.*` member, own and inherited                        | nothing that configures       |
 * | MCP execute code | `hub.sources.add`, `hub.policy.set`, `hub.profiles.create`, `hub.skills.add`, `hub.approve`, `hub.connections` | TypeError; unchanged |
 * | MCP execute code | `process`, `require('fs')`, `import('node:fs')`, a module of the host's own, a static import, `Function`, the constructor's constructor | refused; unchanged |
 * | MCP execute code | `fetch` of the hub's own files and endpoints                                    | no `fetch`; unchanged         |
 */
import type { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { type Host, textOf } from './invariant-hub.ts';

export interface ConfigurationHub {
  name: Host;
  /** The agent's MCP clients (every transport the host serves), connected before the suite. */
  clients(): Client[];
  /** The configuration is what it was before the suite, and no answer holds what the hub keeps. */
  unchanged(answers: unknown[]): Promise<void>;
  /** Whether the guest's engine quotes a name it does not define (QuickJS: `'fetch' is not defined`). */
  quotesUndefinedNames: boolean;
  /** The guest's error for a member `hub` does not have, or one that is not a function. */
  noSuchMember: RegExp;
  /** A module of the host's own that an import would reach if the sandbox allowed one. */
  hostModule: string;
  /** URLs of the hub's own files and endpoints a guest's `fetch` would reach. */
  ownUrls(): string[];
}

const CONFIGURING =
  /source|connection|polic|profile|skill|config|approve|decide|auth|secret|token|^process$|^require$|^env$|Deno|Bun/i;

export function describeConfiguration(hub: ConfigurationHub): void {
  /** The guest's words for a name its sandbox does not define. */
  const notDefined = (name: string) => `${hub.quotesUndefinedNames ? `'${name}'` : name} is not defined`;

  /** Runs `code` through execute and returns what came back (an envelope, or an error result). */
  async function run(client: Client, code: string) {
    const result = await client.callTool({ name: 'execute', arguments: { code } });
    return { text: textOf(result), envelope: result.structuredContent };
  }

  describe(`I8 on the ${hub.name} hub: the MCP surface offers nothing that configures`, () => {
    it('the tools are search, describe and execute on every transport, and no prompt', async () => {
      const answers: unknown[] = [];
      for (const client of hub.clients()) {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name).sort()).toEqual(['describe', 'execute', 'search']);
        expect(client.getServerCapabilities()?.prompts).toBeUndefined();
        answers.push(tools);
      }
      await hub.unchanged(answers);
    }, 60_000);
  });

  describe(`I8 on the ${hub.name} hub: code inside execute cannot reach configuration, files or the host`, () => {
    it('no global and no `hub` member configures', async () => {
      const code = `
        const own = (o) => { const names = []; for (let p = o; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) names.push(...Object.getOwnPropertyNames(p)); return names; };
        return { globals: Object.getOwnPropertyNames(globalThis), hub: own(hub) };
      `;
      const answers = [];
      for (const client of hub.clients()) {
        const { envelope } = await run(client, code);
        expect(envelope).toMatchObject({ status: 'completed' });
        const result = (envelope as { result: { globals: string[]; hub: string[] } }).result;
        expect(result.hub.filter((name) => !['length', 'name', 'prototype'].includes(name)).sort()).toEqual([
          'describe',
          'read',
          'search',
        ]);
        expect(result.globals.filter((name) => CONFIGURING.test(name))).toEqual([]);
        answers.push(envelope);
      }
      await hub.unchanged(answers);
    }, 60_000);

    it.each([
      ['hub.sources.add', 'return await hub.sources.add({ url: "https://evil.example/mcp" })'],
      ['hub.policy.set', 'return await hub.policy.set("board.post", "allow")'],
      ['hub.profiles.create', 'return await hub.profiles.create("evil", { namespaces: "all" })'],
      ['hub.skills.add', 'return await hub.skills.add("/")'],
      ['hub.approve', 'return await hub.approve("run_x", "always")'],
      ['hub.connections', 'return await hub.connections.board.set("token", "x")'],
    ])(
      '%s is no such thing',
      async (_name, code) => {
        const answers = [];
        for (const client of hub.clients()) {
          const { envelope, text } = await run(client, code);
          expect(envelope).toMatchObject({
            status: 'failed',
            error: { code: 'uncaught', message: expect.stringMatching(hub.noSuchMember) },
          });
          answers.push(envelope, text);
        }
        await hub.unchanged(answers);
      },
      60_000,
    );

    const IMPORT = {
      code: 'unsupported',
      message: expect.stringMatching(/^import is not available in the sandbox/),
    };
    const missing = (name: string) => ({
      code: 'uncaught',
      message: expect.stringMatching(new RegExp(`^ReferenceError: ${notDefined(name)}`)),
    });
    it.each([
      ['process', 'return process.env', missing('process')],
      ['require', 'return require("fs").readFileSync("http-token", "utf8")', missing('require')],
      ['import("node:fs")', 'const fs = await import("node:fs"); return fs.readdirSync(".")', IMPORT],
      [
        'a module of the host’s own',
        `const m = await import(${JSON.stringify(hub.hostModule)}); return Object.keys(m)`,
        IMPORT,
      ],
      [
        'a static import',
        'import { readFileSync } from "node:fs"; return readFileSync("/etc/hostname", "utf8")',
        IMPORT,
      ],
      ['Function', 'return Function("return process.env")()', missing('Function')],
      [
        'the constructor’s constructor',
        'return hub.search.constructor("return this")().process.env',
        { code: 'uncaught', message: expect.stringMatching(/constructor is not available in the sandbox/) },
      ],
    ])(
      '%s reaches no host',
      async (_name, code, error) => {
        const answers = [];
        for (const client of hub.clients()) {
          const { envelope, text } = await run(client, code);
          expect(envelope).toMatchObject({ status: 'failed', error });
          answers.push(envelope, text);
        }
        await hub.unchanged(answers);
      },
      60_000,
    );

    it('fetch of the hub’s own files and endpoints goes nowhere', async () => {
      const answers = [];
      for (const client of hub.clients()) {
        for (const url of hub.ownUrls()) {
          const { envelope, text } = await run(
            client,
            `try { const r = await fetch(${JSON.stringify(url)}); return await r.text(); } catch (e) { return "refused: " + e.message; }`,
          );
          expect(envelope).toMatchObject({ status: 'completed', result: `refused: ${notDefined('fetch')}` });
          answers.push(envelope, text);
        }
      }
      await hub.unchanged(answers);
    }, 60_000);
  });
}
