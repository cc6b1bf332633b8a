/**
 * The spec's journey J2: summarize my open bugs and post the top three (highest priority, then
 * oldest) to #eng: one post, approved once, naming exactly those three. The seed makes the top
 * three the only urgent ones, so any reasonable ranking by priority agrees.
 */
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
  writesTo,
} from './tracker-world.ts';

type Bug = Pick<LinearIssue, 'identifier' | 'title' | 'priority' | 'priorityLabel' | 'createdAt'>;

/** Urgent first, no priority last, then oldest first. */
const rank = (a: Bug, b: Bug) =>
  (a.priority || 5) - (b.priority || 5) || a.createdAt.localeCompare(b.createdAt);

const line = (bug: Bug, n: number) => `${n + 1}. ${bug.identifier} ${bug.title} (${bug.priorityLabel})`;

export const task: EvalTask = {
  id: 'j2-top-bugs-to-eng',
  prompt: 'summarize my open bugs and post the top 3 to #eng',
  multiStep: true,
  traits: ['J2', 'approval', 'filter'],
  sources: ['linear', 'slack'],
  check(world) {
    const state = linearState(world);
    const mine = state.issues.filter(
      (issue) => issue.assignee?.id === state.viewerId && isOpen(issue) && issue.labels.includes('Bug'),
    );
    const top = [...mine]
      .sort(rank)
      .slice(0, 3)
      .map((issue) => issue.identifier);
    const posts = newPosts(world);
    if (posts.length !== 1) return fail(`expected exactly one post, found ${posts.length}`);
    const [post] = posts as [(typeof posts)[0]];
    if (post.channel !== 'eng' || post.thread_ts) return fail(`the post went to #${post.channel}, not #eng`);
    const named = idsIn(post.text).filter((id) => mine.some((issue) => issue.identifier === id));
    if (!sameSet(named, top))
      return fail(`the post names ${listed(named)}; the top three are ${listed(top)}`);
    if (writesTo(world, 'linear', ['linear_search_issues', 'linear_get_user_issues']).length > 0)
      return fail('Linear was changed');
    return pass(`one post in #eng naming ${listed(top)}`);
  },
  scripts: {
    async code(model) {
      await findAndDescribe(
        model,
        ['issues assigned to me', 'post a message to a slack channel'],
        ['linear.linear_get_user_issues', 'slack.slack_list_channels', 'slack.slack_post_message'],
      );
      const reply = await execute(
        model,
        `const { issues } = await linear.linear_get_user_issues({ limit: 250 });
const open = issues.filter((i) => i.labels.includes('Bug') && !['completed', 'canceled'].includes(i.state.type));
open.sort((a, b) => (a.priority || 5) - (b.priority || 5) || a.createdAt.localeCompare(b.createdAt));
const top = open.slice(0, 3);
const { channels } = await slack.slack_list_channels({});
const eng = channels.find((c) => c.name === 'eng');
const text = 'Top 3 open bugs on my plate:\\n' + top.map((b, i) => \`\${i + 1}. \${b.identifier} \${b.title} (\${b.priorityLabel})\`).join('\\n');
await slack.slack_post_message({ channel_id: eng.id, text });
return { open: open.length, top: top.map((b) => b.identifier + ' ' + b.title) };`,
      );
      const { open, top } = resultOf<{ open: number; top: string[] }>(reply);
      return `You have ${open} open bugs. I posted the top 3 to #eng: ${top.join('; ')}.`;
    },
    async direct(model) {
      const [sample, channels] = await model.use(
        call('linear.linear_get_user_issues', { limit: 1 }),
        call('slack.slack_list_channels', {}),
      );
      const me = sample?.json<{ issues: LinearIssue[] }>().issues[0]?.assignee?.id;
      const [bugs] = await model.use(
        call('linear.linear_search_issues', { assigneeId: me, labels: ['Bug'], limit: 100 }),
      );
      const open = (bugs?.json<{ issues: LinearIssue[] }>().issues ?? []).filter(isOpen).sort(rank);
      const eng = channels
        ?.json<{ channels: { id: string; name: string }[] }>()
        .channels.find((c) => c.name === 'eng');
      const top = open.slice(0, 3);
      await model.use(
        call('slack.slack_post_message', {
          channel_id: eng?.id,
          text: `Top 3 open bugs on my plate:\n${top.map(line).join('\n')}`,
        }),
      );
      return `You have ${open.length} open bugs. I posted the top 3 to #eng: ${top.map((b) => b.identifier).join(', ')}.`;
    },
  },
};
