/**
 * The official v2 client on `capabilities hub serve --stdio --profile <name>`, as a harness that
 * declares form elicitation launches it: when a call needs a person, the hub asks in the client's
 * prompt, and the task's person answers: `deny` for an address they deny, else `run` (allow that
 * tool for the rest of the run, as a person approving a task's writes would).
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { EvalHub } from '../hub-home.ts';
import type { Person } from '../task.ts';

/** `Allow linear.linear_create_issue (connection: none)?`: the address the prompt asks about. */
const ASKED = /^Allow (\S+) \(connection/;

export interface HubClient {
  client: Client;
  setPerson(person: Person): void;
  /** How many times the person was asked, since the client started. */
  asked(): number;
  stderr(): string;
}

export async function hubClient(hub: EvalHub, profile: string): Promise<HubClient> {
  let person: Person = {};
  let asked = 0;
  const client = new Client(
    { name: 'capabilities-eval', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked++;
    const message = 'message' in request.params ? request.params.message : '';
    const address = ASKED.exec(message)?.[1] ?? '';
    const decision = person.deny?.includes(address) ? 'deny' : 'run';
    return { action: 'accept', content: { decision } };
  });
  const transport = new StdioClientTransport({
    command: hub.bin,
    args: ['hub', 'serve', '--stdio', '--profile', profile],
    env: hub.env,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  await client.connect(transport);
  return {
    client,
    setPerson: (next) => {
      person = next;
    },
    asked: () => asked,
    stderr: () => stderr,
  };
}
