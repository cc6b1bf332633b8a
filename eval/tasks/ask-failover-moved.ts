/** Asked as a person asks: "tell #eng the Postgres failover moved to Monday". One post. */
import { execute, findByAsking, seekIn } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, fail, newPosts, pass } from './tracker-world.ts';

const PROMPT = 'tell #eng the Postgres failover moved to Monday';
const NEEDED = ['slack.slack_post_message'];
const TEXT = 'Heads up: the Postgres failover moved to Monday.';

export const task: EvalTask = {
  id: 'ask-failover-moved',
  prompt: PROMPT,
  multiStep: false,
  traits: ['outcome', 'single', 'approval'],
  sources: ['slack'],
  check(world) {
    const posts = newPosts(world);
    if (posts.length !== 1) return fail(`expected exactly one post, found ${posts.length}`);
    const [post] = posts as [(typeof posts)[0]];
    if (post.channel !== 'eng' || post.thread_ts) return fail(`the post went to #${post.channel}, not #eng`);
    if (!/failover/i.test(post.text) || !/monday/i.test(post.text))
      return fail(`the post says "${post.text}", not that the failover moved to Monday`);
    return pass('#eng told the failover moved to Monday');
  },
  scripts: {
    async code(model) {
      // A way to post: by those words if the answers showed them, else slack's list.
      await findByAsking(model, PROMPT, NEEDED, [
        ...seekIn('slack', NEEDED, [{ query: 'post message slack channel' }]),
      ]);
      await execute(
        model,
        `return await slack.slack_post_message({ channel_id: 'eng', text: ${JSON.stringify(TEXT)} });`,
      );
      return `Posted to #eng: "${TEXT}"`;
    },
    async direct(model) {
      await model.use(call('slack.slack_post_message', { channel_id: 'eng', text: TEXT }));
      return `Posted to #eng: "${TEXT}"`;
    },
  },
};
