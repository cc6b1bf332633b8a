/** One call does it: post "deploy done" to #releases (direct's best case). */
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, fail, newPosts, pass } from './tracker-world.ts';

export const task: EvalTask = {
  id: 'slack-post-deploy-done',
  prompt: "post 'deploy done' to #releases",
  multiStep: false,
  traits: ['single', 'approval'],
  sources: ['slack'],
  check(world) {
    const posts = newPosts(world);
    if (posts.length !== 1) return fail(`expected exactly one post, found ${posts.length}`);
    const [post] = posts as [(typeof posts)[0]];
    if (post.channel !== 'releases' || post.thread_ts) return fail(`the post went to #${post.channel}`);
    if (post.text.trim().toLowerCase().replace(/[.!]$/, '') !== 'deploy done')
      return fail(`the post says "${post.text}", not "deploy done"`);
    return pass('"deploy done" posted once to #releases');
  },
  scripts: {
    async code(model) {
      await findAndDescribe(model, ['post a message to a slack channel'], ['slack.slack_post_message']);
      await execute(
        model,
        `return await slack.slack_post_message({ channel_id: '#releases', text: 'deploy done' });`,
      );
      return 'Posted "deploy done" to #releases.';
    },
    async direct(model) {
      await model.use(call('slack.slack_post_message', { channel_id: '#releases', text: 'deploy done' }));
      return 'Posted "deploy done" to #releases.';
    },
  },
};
