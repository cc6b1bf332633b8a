/** A loop: the same comment on every open issue that mentions Postgres (and on no other). */
import { isOpen, type LinearIssue } from '../fixtures/services/linear-seed.ts';
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, fail, linearState, listed, newComments, pass, resultOf, sameSet } from './tracker-world.ts';

const BODY = 'Heads up: blocked on the Postgres 16 upgrade (ENG-61), expected next week.';

export const task: EvalTask = {
  id: 'linear-comment-postgres',
  prompt: `Add a comment to every open issue that mentions postgres: "${BODY}" (not ENG-61 itself)`,
  multiStep: true,
  traits: ['loop', 'approval'],
  sources: ['linear'],
  check(world) {
    const wanted = linearState(world)
      .issues.filter((issue) => isOpen(issue) && /postgres/i.test(`${issue.title} ${issue.description}`))
      .map((issue) => issue.identifier)
      .filter((identifier) => identifier !== 'ENG-61');
    const added = newComments(world);
    const on = added.map((comment) => comment.issueIdentifier);
    if (!sameSet(on, wanted))
      return fail(`comments on ${listed(on)}; expected one each on ${listed(wanted)}`);
    if (added.some((comment) => !comment.body.includes('Postgres 16 upgrade')))
      return fail('a comment lacks the requested text');
    return pass(`commented on ${listed(wanted)}`);
  },
  scripts: {
    async code(model) {
      await findAndDescribe(
        model,
        ['search linear issues', 'comment on a linear issue'],
        ['linear.linear_search_issues', 'linear.linear_add_comment'],
      );
      const reply = await execute(
        model,
        `const { issues } = await linear.linear_search_issues({ query: 'postgres', limit: 100 });
const open = issues.filter((i) => !['completed', 'canceled'].includes(i.state.type) && i.identifier !== 'ENG-61');
for (const i of open) await linear.linear_add_comment({ issueId: i.id, body: ${JSON.stringify(BODY)} });
return open.map((i) => i.identifier);`,
      );
      return `Commented on ${resultOf<string[]>(reply).join(', ')}.`;
    },
    async direct(model) {
      const [found] = await model.use(call('linear.linear_search_issues', { query: 'postgres', limit: 100 }));
      const open = (found?.json<{ issues: LinearIssue[] }>().issues ?? []).filter(
        (issue) => isOpen(issue) && issue.identifier !== 'ENG-61',
      );
      await model.use(
        ...open.map((issue) => call('linear.linear_add_comment', { issueId: issue.id, body: BODY })),
      );
      return `Commented on ${open.map((issue) => issue.identifier).join(', ')}.`;
    },
  },
};
