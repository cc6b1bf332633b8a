/** A join and a loop: each open action item of the Sprint 14 retro page filed as an acme/web issue. */
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, fail, listed, newGithubIssues, pageNamed, pass, resultOf, seedOf } from './workspace-world.ts';

const wanted = () =>
  (seedOf().wiki.blocks[pageNamed('Sprint 14 retro').id] ?? [])
    .filter((block) => block.type === 'to_do' && !block.checked)
    .map((block) => block.text);

interface Block {
  type: string;
  to_do?: { rich_text: { plain_text: string }[]; checked: boolean };
}

export const task: EvalTask = {
  id: 'notion-retro-to-github',
  prompt:
    'Turn the open action items from the "Sprint 14 retro" page in Notion into GitHub issues in acme/web.',
  multiStep: true,
  traits: ['join', 'loop', 'approval'],
  sources: ['notion', 'github'],
  check(world) {
    const created = newGithubIssues(world);
    const want = wanted();
    const titles = created.map((issue) => issue.title);
    const missing = want.filter(
      (text) => !created.some((issue) => issue.repo === 'acme/web' && issue.title.includes(text)),
    );
    if (missing.length > 0) return fail(`no acme/web issue for ${listed(missing)}`);
    if (created.length !== want.length)
      return fail(`expected ${want.length} issues, found ${created.length}: ${listed(titles)}`);
    return pass(`filed ${listed(titles)}`);
  },
  scripts: {
    async code(model) {
      await findAndDescribe(
        model,
        ['search notion pages', 'read notion page blocks', 'create a github issue'],
        ['notion.APIPostSearch', 'notion.APIGetBlockChildren', 'github.create_issue'],
      );
      const reply = await execute(
        model,
        `const page = (await notion.APIPostSearch({ query: 'Sprint 14 retro' })).results[0];
const blocks = (await notion.APIGetBlockChildren({ block_id: page.id })).results;
const open = blocks.filter((b) => b.type === 'to_do' && !b.to_do.checked).map((b) => b.to_do.rich_text.map((t) => t.plain_text).join(''));
const made = [];
for (const title of open) {
  const issue = await github.create_issue({ owner: 'acme', repo: 'web', title, body: 'Action item from the Sprint 14 retro (Notion).' });
  made.push('#' + issue.number + ' ' + title);
}
return made;`,
      );
      return `Filed ${resultOf<string[]>(reply).join('; ')}.`;
    },
    async direct(model) {
      const [found] = await model.use(call('notion.APIPostSearch', { query: 'Sprint 14 retro' }));
      const pageId = found?.json<{ results: { id: string }[] }>().results[0]?.id;
      const [children] = await model.use(call('notion.APIGetBlockChildren', { block_id: pageId }));
      const open = (children?.json<{ results: Block[] }>().results ?? [])
        .filter((block) => block.type === 'to_do' && block.to_do?.checked === false)
        .map((block) => block.to_do?.rich_text.map((part) => part.plain_text).join('') ?? '');
      const made = await model.use(
        ...open.map((title) =>
          call('github.create_issue', {
            owner: 'acme',
            repo: 'web',
            title,
            body: 'Action item from the Sprint 14 retro (Notion).',
          }),
        ),
      );
      return `Filed ${made.map((reply) => `#${reply.json<{ number: number }>().number}`).join(', ')}.`;
    },
  },
};
