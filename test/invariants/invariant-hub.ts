/**
 * What the invariant suites share. Each `*.suite.ts` in this folder states its attacks once
 * against a harness of its own (what it needs of a hub: clients, a waiting run, an upstream's
 * count); its two runners (`<name>.test.ts` on a local hub the CLI made, `<name>.workers.test.ts`
 * on the hosted hub in workerd) make the hub and hand it over, as the store and run contract
 * suites in test/conformance/ do. Here: the hosts' names, the plainest harness (the agent's MCP
 * client and the hub's own HTTP), and the readings of a tool result every suite uses. Pure: no
 * Node and no Workers module.
 */
import { Client } from '@modelcontextprotocol/client';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';

/** The host a runner makes, in each suite's title. */
export type Host = 'local' | 'hosted';

export interface InvariantHub {
  name: Host;
  /** The agent's MCP client on the hub, connected before the suite runs. */
  client(): Client;
  /** A request to the hub's own HTTP (`/mcp`, `/healthz`, ...) on the path given. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** The agent's bearer token on `/mcp`. */
  token(): string;
}

type Result = Awaited<ReturnType<Client['callTool']>>;

/** A tool result's text, joined. */
export const textOf = (result: Result): string =>
  ((result.content ?? []) as { type: string; text?: string }[]).map((part) => part.text ?? '').join('\n');

/** An `execute` result's envelope (none when the call was refused before a run). */
export const envelopeOf = (result: Result) => result.structuredContent as ExecuteEnvelope | undefined;

/** The outcome of a call that may be refused as a protocol error: its text, or the error's. */
export const outcomeOf = (call: Promise<Result>): Promise<string> =>
  call.then(
    (result) => `${result.isError ? 'isError: ' : ''}${textOf(result)}`,
    (error: unknown) => String(error),
  );

/** `execute` of `code` on the hub's client, answered with its envelope. */
export async function execute(hub: InvariantHub, code: string): Promise<ExecuteEnvelope> {
  const answer = await hub.client().callTool({ name: 'execute', arguments: { code } }, { timeout: 180_000 });
  return answer.structuredContent as ExecuteEnvelope;
}

/**
 * A 2026-07-28 client with form elicitation, not yet connected, whose person answers `answer` to
 * every form the hub asks; `asked` collects each form.
 */
export function elicitingClient(answer: 'once' | 'always' | 'decline' = 'once'): {
  client: Client;
  asked: unknown[];
} {
  const asked: unknown[] = [];
  const client = new Client(
    { name: 'i2-prompt', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params);
    return answer === 'decline' ? { action: 'decline' } : { action: 'accept', content: { decision: answer } };
  });
  return { client, asked };
}
