/**
 * Asked as a person asks: "let the team know the deploy to prod is done". Nothing names a channel:
 * the model lists the channels, picks the one for deploy announcements (#releases) and posts there.
 */
import type { SlackChannel } from '../fixtures/services/slack.ts';
import { execute, findByAsking, seekIn } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, fail, newPosts, pass, resultOf } from './tracker-world.ts';

const PROMPT = 'let the team know the deploy to prod is done';
const NEEDED = ['slack.slack_list_channels', 'slack.slack_post_message'];
const TEXT = 'The deploy to prod is done.';

export const task: EvalTask = {
  id: 'ask-deploy-done',
  prompt: PROMPT,
  multiStep: true,
  traits: ['outcome', 'approval'],
  sources: ['slack'],
  check(world) {
    const posts = newPosts(world);
    if (posts.length !== 1) return fail(`expected exactly one post, found ${posts.length}`);
    const [post] = posts as [(typeof posts)[0]];
    if (post.channel !== 'releases' || post.thread_ts)
      return fail(
        `the post went to #${post.channel}${post.thread_ts ? ' (in a thread)' : ''}, not #releases`,
      );
    if (!/deploy/i.test(post.text) || !/\bprod/i.test(post.text))
      return fail(`the post says "${post.text}", not that the deploy to prod is done`);
    return pass('#releases told the deploy to prod is done');
  },
  scripts: {
    async code(model) {
      // Chat tools: slack's list, once an answer has named slack (8 tools: channels and posting).
      await findByAsking(model, PROMPT, NEEDED, seekIn('slack', NEEDED));
      const reply = await execute(
        model,
        `const { channels } = await slack.slack_list_channels({});
const channel = channels.find((c) => /deploy/i.test(c.purpose.value));
await slack.slack_post_message({ channel_id: channel.id, text: ${JSON.stringify(TEXT)} });
return channel.name;`,
      );
      return `Posted "${TEXT}" to #${resultOf<string>(reply)}.`;
    },
    async direct(model) {
      const [listed] = await model.use(call('slack.slack_list_channels', {}));
      const channel = listed
        ?.json<{ channels: SlackChannel[] }>()
        .channels.find((candidate) => /deploy/i.test(candidate.purpose.value));
      await model.use(call('slack.slack_post_message', { channel_id: channel?.id, text: TEXT }));
      return `Posted "${TEXT}" to #${channel?.name}.`;
    },
  },
};
