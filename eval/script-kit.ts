/**
 * What a competent model does in code mode before it writes code, as one helper for every task's
 * code-arm script: search for each thing it needs (all queries in one turn), search again by the
 * tool's own name for anything the first answers did not show, then describe every tool it will
 * call (one turn). A tool the hub cannot find fails the script: the eval then says so, as a model
 * would fail. The outcome tasks find their tools from the person's words instead (find-by-asking.ts,
 * re-exported here).
 */
import type { ScriptedModel, ToolReply } from './task.ts';

export { type Found, findByAsking, type Retry, type Search, seek, seekIn } from './find-by-asking.ts';

/** Searches for `queries`, checks that every one of `addresses` was shown, and describes them. */
export async function findAndDescribe(
  model: ScriptedModel,
  queries: readonly string[],
  addresses: readonly string[],
): Promise<ToolReply> {
  const found = await model.use(...queries.map((query) => ({ name: 'search', input: { query } })));
  const shown = found.map((reply) => reply.text).join('\n');
  const missing = addresses.filter((address) => !shown.includes(address));
  if (missing.length > 0) {
    const again = await model.use(
      ...missing.map((address) => ({
        name: 'search',
        input: { query: (address.split('.')[1] ?? address).replace(/[_-]+/g, ' ') },
      })),
    );
    const lost = missing.filter((address) => !again.some((reply) => reply.text.includes(address)));
    if (lost.length > 0) throw new Error(`search did not show ${lost.join(', ')}`);
  }
  const [described] = await model.use({ name: 'describe', input: { targets: [...addresses] } });
  if (!described) throw new Error('describe gave no answer');
  return described;
}

/** Sends `code` to `execute` in one turn; its reply is what the model reads (the summary line). */
export async function execute(model: ScriptedModel, code: string): Promise<ToolReply> {
  const [reply] = await model.use({ name: 'execute', input: { code } });
  if (!reply) throw new Error('execute gave no answer');
  return reply;
}
