/** A filter: open urgent issues nobody owns, across the workspace, listed in one #eng-leads post. */
import { isOpen, type LinearIssue } from '../fixtures/services/linear-seed.ts';
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import {
  call,
  fail,
  idsIn,
  linearState,
  listed,
  newPosts,
  pass,
  resultOf,
  sameSet,
} from './tracker-world.ts';

const orphan = (issue: LinearIssue) => isOpen(issue) && issue.priority === 1 && issue.assignee === null;

export const task: EvalTask = {
  id: 'linear-unassigned-urgent',
  prompt:
    'Find every open urgent issue in Linear that nobody is assigned to and post the list in #eng-leads.',
  multiStep: true,
  traits: ['filter', 'approval'],
  sources: ['linear', 'slack'],
  check(world) {
    const wanted = linearState(world)
      .issues.filter(orphan)
      .map((issue) => issue.identifier);
    const posts = newPosts(world);
    if (posts.length !== 1) return fail(`expected exactly one post, found ${posts.length}`);
    const [post] = posts as [(typeof posts)[0]];
    if (post.channel !== 'eng-leads') return fail(`the post went to #${post.channel}`);
    const named = idsIn(post.text);
    if (!sameSet(named, wanted)) return fail(`the post names ${listed(named)}; expected ${listed(wanted)}`);
    return pass(`#eng-leads told about ${listed(wanted)}`);
  },
  scripts: {
    async code(model) {
      await findAndDescribe(
        model,
        ['search linear issues by priority', 'post a message to a slack channel'],
        ['linear.linear_search_issues', 'slack.slack_post_message'],
      );
      const reply = await execute(
        model,
        `const { issues } = await linear.linear_search_issues({ priority: 1, limit: 250 });
const orphans = issues.filter((i) => !i.assignee && !['completed', 'canceled'].includes(i.state.type));
const text = 'Urgent issues with no owner:\\n' + orphans.map((i) => '• ' + i.identifier + ' ' + i.title + ' (' + i.state.name + ')').join('\\n');
await slack.slack_post_message({ channel_id: 'eng-leads', text });
return orphans.map((i) => i.identifier + ' ' + i.title);`,
      );
      return `Posted ${resultOf<string[]>(reply).join('; ')} to #eng-leads.`;
    },
    async direct(model) {
      const [found] = await model.use(call('linear.linear_search_issues', { priority: 1, limit: 100 }));
      const orphans = (found?.json<{ issues: LinearIssue[] }>().issues ?? []).filter(orphan);
      const text = `Urgent issues with no owner:\n${orphans.map((i) => `• ${i.identifier} ${i.title} (${i.state.name})`).join('\n')}`;
      await model.use(call('slack.slack_post_message', { channel_id: 'eng-leads', text }));
      return `Posted ${orphans.length} unowned urgent issues to #eng-leads.`;
    },
  },
};
