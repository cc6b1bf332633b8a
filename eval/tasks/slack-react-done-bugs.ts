/**
 * A join with a loop: each #bugs message whose Linear issue is already Done gets a
 * :white_check_mark: reaction (and no other message does).
 */
import type { LinearIssue } from '../fixtures/services/linear-seed.ts';
import type { SlackMessage } from '../fixtures/services/slack.ts';
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import {
  call,
  fail,
  idsIn,
  linearState,
  listed,
  messagesIn,
  newPosts,
  pass,
  resultOf,
  sameSet,
} from './tracker-world.ts';

const ISSUE = /\b[A-Z]+-\d+\b/g;
const REACTION = 'white_check_mark';

export const task: EvalTask = {
  id: 'slack-react-done-bugs',
  prompt:
    'Go through #bugs and react with :white_check_mark: to every message whose Linear issue is already done.',
  multiStep: true,
  traits: ['join', 'loop', 'approval'],
  sources: ['slack', 'linear'],
  check(world) {
    const issues = linearState(world).issues;
    const done = (id: string) => issues.find((issue) => issue.identifier === id)?.state.name === 'Done';
    const messages = messagesIn(world, 'bugs');
    const wanted = messages.filter((m) => idsIn(m.text, ISSUE).some(done)).map((m) => m.ts);
    const reacted = messages
      .filter((m) => m.reactions?.some((r) => r.name === REACTION && r.users.includes('U02DANA01')))
      .map((m) => m.ts);
    if (wanted.length === 0) return fail('no #bugs message names a Done issue: the task checks nothing');
    if (!sameSet(reacted, wanted))
      return fail(`reacted to ${reacted.length} messages; expected ${wanted.length} (${listed(wanted)})`);
    if (newPosts(world).length > 0) return fail('messages were posted');
    return pass(`reacted to the ${wanted.length} messages of Done issues`);
  },
  scripts: {
    async code(model) {
      await findAndDescribe(
        model,
        ['slack channel history', 'find a linear issue by identifier', 'add a reaction to a slack message'],
        ['slack.slack_get_channel_history', 'linear.linear_search_issues', 'slack.slack_add_reaction'],
      );
      const reply = await execute(
        model,
        `const { messages } = await slack.slack_get_channel_history({ channel_id: 'bugs', limit: 100 });
const marked = [];
for (const m of messages) {
  const ids = m.text.match(/\\b[A-Z]+-\\d+\\b/g) ?? [];
  for (const id of ids) {
    const { issues } = await linear.linear_search_issues({ query: id, limit: 1 });
    if (issues[0]?.identifier === id && issues[0].state.name === 'Done') {
      await slack.slack_add_reaction({ channel_id: 'bugs', timestamp: m.ts, reaction: '${REACTION}' });
      marked.push(id);
      break;
    }
  }
}
return marked;`,
      );
      return `Marked the #bugs messages about ${resultOf<string[]>(reply).join(', ')} (done in Linear).`;
    },
    async direct(model) {
      const [history] = await model.use(
        call('slack.slack_get_channel_history', { channel_id: 'bugs', limit: 100 }),
      );
      const messages = history?.json<{ messages: SlackMessage[] }>().messages ?? [];
      const mentioned = messages.flatMap((m) => idsIn(m.text, ISSUE).map((id) => ({ id, ts: m.ts })));
      const looked = await model.use(
        ...mentioned.map(({ id }) => call('linear.linear_search_issues', { query: id, limit: 1 })),
      );
      const done = mentioned.filter(({ id }, i) => {
        const issue = looked[i]?.json<{ issues: LinearIssue[] }>().issues[0];
        return issue?.identifier === id && issue.state.name === 'Done';
      });
      await model.use(
        ...done.map(({ ts }) =>
          call('slack.slack_add_reaction', { channel_id: 'bugs', timestamp: ts, reaction: REACTION }),
        ),
      );
      return `Marked the #bugs messages about ${done.map(({ id }) => id).join(', ')}.`;
    },
  },
};
