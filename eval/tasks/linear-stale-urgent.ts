/**
 * A filter over the large list: of my issues, the open urgent ones not updated since March 1,
 * each asked in a comment whether it is still urgent (and no other issue touched).
 */
import { isOpen, type LinearIssue } from '../fixtures/services/linear-seed.ts';
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import {
  call,
  fail,
  linearState,
  listed,
  newComments,
  pass,
  resultOf,
  sameSet,
  seedIssue,
} from './tracker-world.ts';

const MARCH = '2026-03-01T00:00:00.000Z';
const BODY = 'No update since before March: is this still urgent? If not, let’s lower the priority.';
const stale = (issue: LinearIssue) => isOpen(issue) && issue.priority === 1 && issue.updatedAt < MARCH;

export const task: EvalTask = {
  id: 'linear-stale-urgent',
  prompt:
    "Which of my urgent issues haven't been touched since March? Leave a comment on each asking if it's still urgent.",
  multiStep: true,
  traits: ['filter', 'loop', 'approval'],
  sources: ['linear'],
  check(world) {
    const state = linearState(world);
    const wanted = state.issues
      .filter((issue) => issue.assignee?.id === state.viewerId)
      .filter((issue) => stale(seedIssue(issue.identifier) ?? issue))
      .map((issue) => issue.identifier);
    const on = newComments(world).map((comment) => comment.issueIdentifier);
    if (wanted.length === 0) return fail('the seed has no stale urgent issue: the task checks nothing');
    if (!sameSet(on, wanted))
      return fail(`comments on ${listed(on)}; expected one each on ${listed(wanted)}`);
    return pass(`asked on ${listed(wanted)}`);
  },
  scripts: {
    async code(model) {
      await findAndDescribe(
        model,
        ['issues assigned to me', 'comment on a linear issue'],
        ['linear.linear_get_user_issues', 'linear.linear_add_comment'],
      );
      const reply = await execute(
        model,
        `const { issues } = await linear.linear_get_user_issues({ limit: 250 });
const stale = issues.filter((i) => i.priority === 1 && !['completed', 'canceled'].includes(i.state.type) && i.updatedAt < '${MARCH}');
for (const i of stale) await linear.linear_add_comment({ issueId: i.id, body: ${JSON.stringify(BODY)} });
return stale.map((i) => i.identifier + ' ' + i.title + ' (last updated ' + i.updatedAt.slice(0, 10) + ')');`,
      );
      return `These urgent issues of yours haven't moved since March, and each now has a comment asking: ${resultOf<string[]>(reply).join('; ')}.`;
    },
    async direct(model) {
      const [sample] = await model.use(call('linear.linear_get_user_issues', { limit: 1 }));
      const me = sample?.json<{ issues: LinearIssue[] }>().issues[0]?.assignee?.id;
      const [urgent] = await model.use(
        call('linear.linear_search_issues', { assigneeId: me, priority: 1, limit: 100 }),
      );
      const found = (urgent?.json<{ issues: LinearIssue[] }>().issues ?? []).filter(stale);
      await model.use(
        ...found.map((issue) => call('linear.linear_add_comment', { issueId: issue.id, body: BODY })),
      );
      return `Untouched since March: ${found.map((issue) => issue.identifier).join(', ')}; I asked on each.`;
    },
  },
};
