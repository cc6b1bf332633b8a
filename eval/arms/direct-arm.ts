/**
 * The direct arm, the way a harness loads MCP servers today: one stdio connection per service
 * stand-in (the same server the hub runs as a source, on the same world), every tool its own tool
 * named `mcp__<server>__<tool>`. Like a harness, it asks the person before a tool that is not
 * declared read-only; a denied call answers the model an error, as a harness's refusal does.
 * With `needed`, each task sees only the servers it names in `sources` (`direct-needed`).
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { toolAddress, toolIdentifiers } from '../../engine/address.ts';
import type { EvalHub } from '../hub-home.ts';
import { SERVER } from '../hub-home.ts';
import type { ModelTool } from '../model/messages.ts';
import type { Person } from '../task.ts';
import { type Arm, modelTool, replyOf, textReply } from './arm.ts';
import { modelNameOf } from './hub-direct-arm.ts';
import { systemPrompt } from './system.ts';

/** What a harness tells the model when the person refuses a tool call. */
export const DENIED = "The user doesn't want to proceed with this tool use. The tool use was rejected.";

interface Target {
  namespace: string;
  client: Client;
  tool: string;
  address: string;
  readOnly: boolean;
}

async function connect(hub: EvalHub, namespace: string): Promise<Client> {
  const client = new Client({ name: 'capabilities-eval-direct', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [SERVER, namespace],
      env: { ...hub.env, EVAL_STATE_DIR: hub.stateDir },
      stderr: 'pipe',
    }),
  );
  return client;
}

export async function directArm(
  hub: EvalHub,
  namespaces: readonly string[],
  { needed = false }: { needed?: boolean } = {},
): Promise<Arm> {
  const clients = await Promise.all(namespaces.map((namespace) => connect(hub, namespace)));
  const targets = new Map<string, Target>();
  const byAddress = new Map<string, string>();
  const tools: (ModelTool & { namespace: string })[] = [];
  const instructions = new Map<string, string | undefined>();
  for (const [i, namespace] of namespaces.entries()) {
    const client = clients[i] as Client;
    instructions.set(namespace, client.getInstructions());
    const listed = (await client.listTools()).tools;
    const ids = toolIdentifiers(listed.map((tool) => tool.name));
    for (const tool of listed) {
      const name = modelNameOf(namespace, tool.name);
      const address = toolAddress(namespace, ids.get(tool.name) ?? tool.name);
      targets.set(name, {
        namespace,
        client,
        tool: tool.name,
        address,
        readOnly: tool.annotations?.readOnlyHint === true,
      });
      byAddress.set(address, name);
      tools.push({ ...modelTool(name, tool), namespace });
    }
  }
  let person: Person = {};
  let shown: ReadonlySet<string> = new Set(namespaces);
  const definition = ({ namespace: _namespace, ...tool }: ModelTool & { namespace: string }): ModelTool =>
    tool;
  return {
    name: needed ? 'direct-needed' : 'direct',
    get system() {
      return systemPrompt(namespaces.filter((ns) => shown.has(ns)).map((ns) => instructions.get(ns)));
    },
    get tools() {
      return tools.filter((tool) => shown.has(tool.namespace)).map(definition);
    },
    nameFor: (address) => byAddress.get(address) ?? address,
    async call(name, input) {
      const target = targets.get(name);
      if (!target || !shown.has(target.namespace)) return textReply(`No such tool available: ${name}`, true);
      if (!target.readOnly && person.deny?.includes(target.address)) return textReply(DENIED, true);
      try {
        return replyOf(await target.client.callTool({ name: target.tool, arguments: input }));
      } catch (error) {
        return textReply(error instanceof Error ? error.message : String(error), true);
      }
    },
    begin(task) {
      person = task.person ?? {};
      shown = new Set(needed ? task.sources : namespaces);
    },
    close: async () => {
      await Promise.all(clients.map((client) => client.close()));
    },
  };
}
