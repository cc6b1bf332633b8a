/**
 * Asked as a person asks: "what did we agree to fix after the last sprint?" A read: the newest
 * sprint retro found by title, its blocks read (the action items). The checker reads the call log:
 * the Sprint 14 retro's content read, no page changed.
 */
import { execute, findByAsking, seekIn } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, fail, pageNamed, pass, resultOf, touchedPages } from './workspace-world.ts';

const PROMPT = 'what did we agree to fix after the last sprint?';
const NEEDED = ['notion.APIPostSearch', 'notion.APIGetBlockChildren'];
const READS = ['API-get-block-children', 'API-retrieve-page-markdown'];
const WRITES = /patch|post-page|update|delete|create|move/i;

interface Block {
  type: string;
  to_do?: { rich_text: { plain_text: string }[]; checked: boolean };
}

export const task: EvalTask = {
  id: 'ask-retro-actions',
  prompt: PROMPT,
  multiStep: true,
  traits: ['outcome'],
  sources: ['notion'],
  check(world) {
    const retro = pageNamed('Sprint 14 retro').id.replace(/-/g, '');
    const read = world.calls('notion').some((record) => {
      const id = String(record.args.block_id ?? record.args.page_id ?? '').replace(/-/g, '');
      return READS.includes(record.tool) && id === retro;
    });
    if (!read) return fail('the Sprint 14 retro was never read');
    const writes = world.calls('notion').filter((record) => WRITES.test(record.tool));
    if (writes.length > 0 || touchedPages(world).length > 0) return fail('a question changed Notion');
    return pass('the Sprint 14 retro read, nothing changed');
  },
  scripts: {
    async code(model) {
      // Notion's list: its page search and its block reads.
      await findByAsking(model, PROMPT, NEEDED, seekIn('notion', NEEDED));
      const reply = await execute(
        model,
        `const { results } = await notion.APIPostSearch({ query: 'sprint' });
const retro = results[0];
const blocks = await notion.APIGetBlockChildren({ block_id: retro.id });
return blocks.results.filter((b) => b.type === 'to_do').map((b) => (b.to_do.checked ? '[x] ' : '[ ] ') + b.to_do.rich_text.map((t) => t.plain_text).join(''));`,
      );
      return `From the last retro:\n${resultOf<string[]>(reply).join('\n')}`;
    },
    async direct(model) {
      const [found] = await model.use(call('notion.APIPostSearch', { query: 'sprint' }));
      const retro = found?.json<{ results: { id: string }[] }>().results[0];
      const [blocks] = await model.use(call('notion.APIGetBlockChildren', { block_id: retro?.id }));
      const items = (blocks?.json<{ results: Block[] }>().results ?? [])
        .filter((block) => block.to_do !== undefined)
        .map(
          (block) =>
            `${block.to_do?.checked ? '[x]' : '[ ]'} ${block.to_do?.rich_text.map((t) => t.plain_text).join('')}`,
        );
      return `From the last retro:\n${items.join('\n')}`;
    },
  },
};
