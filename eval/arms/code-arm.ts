/** The code arm: the hub's three tools (search, describe, execute) on the `default` profile. */
import type { EvalHub } from '../hub-home.ts';
import { type Arm, modelTool, replyOf, textReply } from './arm.ts';
import { hubClient } from './hub-client.ts';
import { systemPrompt } from './system.ts';

export async function codeArm(hub: EvalHub): Promise<Arm> {
  const connected = await hubClient(hub, 'default');
  const { client } = connected;
  const { tools } = await client.listTools();
  return {
    name: 'code',
    system: systemPrompt([client.getInstructions()]),
    tools: tools.map((tool) => modelTool(tool.name, tool)),
    nameFor: (name) => name,
    async call(name, input) {
      try {
        return replyOf(await client.callTool({ name, arguments: input }));
      } catch (error) {
        return textReply(error instanceof Error ? error.message : String(error), true);
      }
    },
    begin: (task) => connected.setPerson(task.person ?? {}),
    close: () => client.close(),
  };
}
