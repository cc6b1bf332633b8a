/**
 * The hub's direct mode: a profile showing every tool as its own MCP tool (named by address),
 * each call a one-call run through the hub. Model-facing names follow the harness convention
 * `mcp__<server>__<tool>` (a dot is not allowed in a model's tool name).
 */
import type { EvalHub } from '../hub-home.ts';
import { DIRECT_PROFILE } from '../hub-home.ts';
import { type Arm, modelTool, replyOf, textReply } from './arm.ts';
import { hubClient } from './hub-client.ts';
import { systemPrompt } from './system.ts';

export const modelNameOf = (server: string, tool: string) =>
  `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);

export async function hubDirectArm(hub: EvalHub): Promise<Arm> {
  const connected = await hubClient(hub, DIRECT_PROFILE);
  const { client } = connected;
  const { tools } = await client.listTools();
  const byModelName = new Map(tools.map((tool) => [modelNameOf('capabilities', tool.name), tool.name]));
  return {
    name: 'hub-direct',
    system: systemPrompt([client.getInstructions()]),
    tools: tools.map((tool) => modelTool(modelNameOf('capabilities', tool.name), tool)),
    nameFor: (address) => modelNameOf('capabilities', address),
    async call(name, input) {
      const address = byModelName.get(name);
      if (address === undefined) return textReply(`No such tool available: ${name}`, true);
      try {
        return replyOf(await client.callTool({ name: address, arguments: input }));
      } catch (error) {
        return textReply(error instanceof Error ? error.message : String(error), true);
      }
    },
    begin: (task) => connected.setPerson(task.person ?? {}),
    close: () => client.close(),
  };
}
