/**
 * I2, "Only a person records a decision; no MCP-reachable path records one" (spec: Security and
 * approvals), as one suite of what an agent can try through MCP on either host, with two runners:
 * test/invariants/i2-decisions.test.ts (a local hub the CLI made, clients over stdio and HTTP; it
 * adds the client prompt's replays, the approval page, the terminal and the import graph) and
 * test/invariants/i2-decisions.workers.test.ts (a signed-in person's hub in workerd, an MCP token
 * through the real OAuth flow; it adds the dashboard). Each attack is on a run waiting on one
 * call; after it, the runner's `untouched` holds that the run still waits, nothing decided it and
 * no post reached the board.
 *
 * | Way in          | Attack                                                                      | Held                        |
 * | --------------- | --------------------------------------------------------------------------- | --------------------------- |
 * | MCP, every client | list tools and the server's capabilities                                  | search/describe/execute; `execute` takes code or resume; no prompt |
 * | MCP execute     | `resume` with `approve: true`, `decision`, `choice`, `pendingId`, `requestState` arguments | still waits  |
 * | MCP execute     | malformed: `resume` as object, number, list or pending id; `code` and `resume` both | refused; still waits |
 * | MCP search/describe | decision-shaped arguments and the pending call's id as a target         | nothing decided             |
 * | MCP execute code| the guest's `hub.*`: approve/decide/resume, and a resume of its own run     | no such thing; still waits  |
 * | MCP prompt      | a forged requestState; a tampered one                                       | -32602; nothing recorded    |
 */
import type { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { envelopeOf, type Host, outcomeOf, textOf } from './invariant-hub.ts';

/** The params of a `tools/call` on the wire, which a test may rewrite before it leaves. */
export type CallParams = Record<string, unknown>;

export interface PromptingClient {
  client: Client;
  /** Every form the hub asked the client's person. */
  asked: unknown[];
}

export interface DecisionsHub {
  name: Host;
  /** The agent's plain clients (no elicitation), one per transport the host serves. */
  clients(): Client[];
  /** A run of the hub waiting on `board.post`, made for the attack named `label`. */
  waitingRun(label: string): Promise<{ runId: string; pendingId: string }>;
  /** The run still waits, nothing decided it, and the board saw none of `label`'s posts. */
  untouched(runId: string, label: string): Promise<void>;
  /**
   * A 2026-07-28 client with form elicitation whose person answers `once` to every form;
   * `rewrite` sees (and may change) every `tools/call` before it leaves: an attacker between the
   * client and the hub. The runner closes it after the suite.
   */
  promptingClient(rewrite: (params: CallParams) => void): Promise<PromptingClient>;
}

const base64url = (text: string) => btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');

export function describeDecisions(hub: DecisionsHub): void {
  describe(`I2 on the ${hub.name} hub, over MCP: no tool and no argument records a decision`, () => {
    it('the surface is search, describe and execute on every transport; no prompt or resource decides', async () => {
      for (const client of hub.clients()) {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name).sort()).toEqual(['describe', 'execute', 'search']);
        const execute = tools.find((tool) => tool.name === 'execute');
        expect(Object.keys(execute?.inputSchema.properties ?? {}).sort()).toEqual(['code', 'resume']);
        expect(client.getServerCapabilities()?.prompts).toBeUndefined();
      }
    }, 60_000);

    it('execute `resume` with decision-shaped extra arguments resumes nothing past the wait', async () => {
      const { runId, pendingId } = await hub.waitingRun('extra');
      const extras = [
        { approve: true },
        { decision: 'always' },
        { choice: 'once', pendingId },
        { approved: [pendingId], channel: 'cli', who: 'the person' },
        {
          requestState: 'x',
          inputResponses: { [pendingId]: { action: 'accept', content: { decision: 'once' } } },
        },
      ];
      for (const client of hub.clients()) {
        for (const extra of extras) {
          const result = await client.callTool({ name: 'execute', arguments: { resume: runId, ...extra } });
          expect(envelopeOf(result)?.status ?? textOf(result)).toBe('awaiting_approval');
        }
      }
      await hub.untouched(runId, 'extra');
    }, 120_000);

    it('malformed execute arguments are refused and decide nothing', async () => {
      const { runId, pendingId } = await hub.waitingRun('malformed');
      const attempts: Record<string, unknown>[] = [
        { resume: { runId, decision: 'once' } },
        { resume: 42 },
        { resume: [runId] },
        { resume: pendingId },
        { resume: `${runId}/decide` },
        { code: 'return 1', resume: runId },
        {},
      ];
      for (const client of hub.clients()) {
        for (const args of attempts) {
          const result = await client.callTool({ name: 'execute', arguments: args });
          expect(result.isError, JSON.stringify(args)).toBe(true);
        }
      }
      await hub.untouched(runId, 'malformed');
    }, 120_000);

    it('search and describe with decision-shaped arguments decide nothing', async () => {
      const { runId, pendingId } = await hub.waitingRun('lookup');
      for (const client of hub.clients()) {
        await client.callTool({ name: 'search', arguments: { query: `approve ${runId}`, approve: true } });
        await client.callTool({
          name: 'search',
          arguments: { query: '', namespace: runId, decision: 'once' },
        });
        await client.callTool({
          name: 'describe',
          arguments: { targets: [pendingId, runId], choice: 'always' },
        });
      }
      await hub.untouched(runId, 'lookup');
    }, 120_000);

    it('the guest’s `hub` offers search, describe and read only; nothing it reaches decides or resumes', async () => {
      const { runId, pendingId } = await hub.waitingRun('guest');
      const code = `
        const tried = {};
        for (const name of ['approve', 'decide', 'resume', 'record', 'answer', 'execute'])
          tried[name] = typeof hub[name];
        const errors = [];
        for (const address of ['hub.approve', 'capabilities.approve', 'capabilities.decide', 'execute.resume']) {
          try { await hub.describe(address); } catch (e) { errors.push(String(e)); }
        }
        try { await hub.read(${JSON.stringify(pendingId)}); } catch (e) { errors.push(String(e)); }
        try { await hub.search(${JSON.stringify(`approve ${runId}`)}); } catch (e) { errors.push(String(e)); }
        return { keys: Object.keys(hub).sort(), tried, errors: errors.length };
      `;
      for (const client of hub.clients()) {
        const result = envelopeOf(await client.callTool({ name: 'execute', arguments: { code } }));
        expect(result).toMatchObject({
          status: 'completed',
          result: {
            keys: ['describe', 'read', 'search'],
            tried: {
              approve: 'undefined',
              decide: 'undefined',
              resume: 'undefined',
              record: 'undefined',
              answer: 'undefined',
              execute: 'undefined',
            },
          },
        });
      }
      await hub.untouched(runId, 'guest');
    }, 120_000);
  });

  describe(`I2 on the ${hub.name} hub, over the client prompt: only the state the hub signed counts`, () => {
    it('a forged requestState and a tampered one are refused before any tool runs (-32602)', async () => {
      const { runId, pendingId } = await hub.waitingRun('forged');
      const answer = { [pendingId]: { action: 'accept', content: { decision: 'always' } } };
      const forged = await hub.promptingClient((params) => {
        params.requestState = `v1.${base64url(JSON.stringify({ run: runId, calls: [pendingId] }))}.AAAA`;
        params.inputResponses = answer;
      });
      expect(
        await outcomeOf(forged.client.callTool({ name: 'execute', arguments: { resume: runId } })),
      ).toMatch(/Invalid or expired requestState/);
      const flip = (state: string) =>
        `${state.slice(0, -3)}${state.at(-3) === 'A' ? 'B' : 'A'}${state.slice(-2)}`;
      const tampered = await hub.promptingClient((params) => {
        if (typeof params.requestState === 'string') params.requestState = flip(params.requestState);
      });
      expect(
        await outcomeOf(tampered.client.callTool({ name: 'execute', arguments: { resume: runId } })),
      ).toMatch(/Invalid or expired requestState/);
      expect(tampered.asked).toHaveLength(1);
      await hub.untouched(runId, 'forged');
    }, 120_000);
  });
}
