/**
 * Asked as a person asks: "support keeps getting asked about the Apple Pay crash; let them know in
 * #support where the fix stands". A join: the fix's Linear issue (ENG-172, In Progress) found by
 * its words, its state posted once to #support; Linear unchanged.
 */
import type { LinearIssue } from '../fixtures/services/linear-seed.ts';
import { execute, findByAsking, seekIn } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, fail, newPosts, pass, resultOf, writesTo } from './tracker-world.ts';

const PROMPT =
  'support keeps getting asked about the Apple Pay crash; let them know in #support where the fix stands';
const SEARCH_ISSUES = 'linear.linear_search_issues';
const POST = 'slack.slack_post_message';
const READS = ['linear_search_issues', 'linear_get_user_issues'];
const status = (issue: Pick<LinearIssue, 'identifier' | 'title' | 'state' | 'assignee'>) =>
  `Apple Pay crash: ${issue.identifier} (${issue.title}) is ${issue.state.name}, with ${issue.assignee?.name ?? 'nobody'}.`;

export const task: EvalTask = {
  id: 'ask-apple-pay-status',
  prompt: PROMPT,
  multiStep: true,
  traits: ['outcome', 'join', 'approval'],
  sources: ['linear', 'slack'],
  check(world) {
    const posts = newPosts(world);
    if (posts.length !== 1) return fail(`expected exactly one post, found ${posts.length}`);
    const [post] = posts as [(typeof posts)[0]];
    if (post.channel !== 'support') return fail(`the post went to #${post.channel}, not #support`);
    if (!/in progress/i.test(post.text))
      return fail(`the post says "${post.text}", not that the fix (ENG-172) is in progress`);
    if (writesTo(world, 'linear', READS).length > 0) return fail('Linear was changed');
    return pass('#support told the Apple Pay fix is in progress');
  },
  scripts: {
    async code(model) {
      // Linear's issue search, then a way to post to a chat channel, each by the words shown if any.
      await findByAsking(
        model,
        PROMPT,
        [SEARCH_ISSUES, POST],
        [
          ...seekIn('linear', [SEARCH_ISSUES], [{ query: 'search linear issues' }]),
          ...seekIn('slack', [POST], [{ query: 'post message slack channel' }]),
        ],
      );
      const reply = await execute(
        model,
        `const { issues } = await linear.linear_search_issues({ query: 'Apple Pay', limit: 5 });
const i = issues[0];
const text = 'Apple Pay crash: ' + i.identifier + ' (' + i.title + ') is ' + i.state.name + ', with ' + (i.assignee?.name ?? 'nobody') + '.';
await slack.slack_post_message({ channel_id: 'support', text });
return text;`,
      );
      return `Posted to #support: ${resultOf<string>(reply)}`;
    },
    async direct(model) {
      const [found] = await model.use(call('linear.linear_search_issues', { query: 'Apple Pay', limit: 5 }));
      const issue = found?.json<{ issues: LinearIssue[] }>().issues[0] as LinearIssue;
      await model.use(call('slack.slack_post_message', { channel_id: 'support', text: status(issue) }));
      return `Posted to #support: ${status(issue)}`;
    },
  },
};
