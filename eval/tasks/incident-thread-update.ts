/**
 * A join: the Sentry issue named in the #incidents thread, its current figures replied in that
 * thread (one reply, not a new top-level post).
 */
import type { SentryIssue } from '../fixtures/services/sentry-seed.ts';
import type { SlackMessage } from '../fixtures/services/slack.ts';
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, fail, messagesIn, newPosts, pass, resultOf, sentryIssues } from './tracker-world.ts';

const SENTRY_ID = /\b(?:WEB|API|WORKER|MOBILE)-[0-9A-Z]+\b/;
const update = (issue: SentryIssue) =>
  `Update from Sentry: ${issue.shortId} is ${issue.status}, ${issue.count} events from ${issue.userCount} users so far, last seen ${issue.lastSeen}.`;

export const task: EvalTask = {
  id: 'incident-thread-update',
  prompt:
    'Reply in the #incidents thread about the checkout errors with the current event and user counts from Sentry.',
  multiStep: true,
  traits: ['join', 'approval'],
  sources: ['slack', 'sentry'],
  check(world) {
    const parent = messagesIn(world, 'incidents').find((m) => m.text.includes('Checkout errors'));
    const issue = sentryIssues(world).find((candidate) => candidate.shortId === 'WEB-5D');
    const posts = newPosts(world);
    if (posts.length !== 1) return fail(`expected exactly one reply, found ${posts.length} new messages`);
    const [post] = posts as [(typeof posts)[0]];
    if (post.channel !== 'incidents' || post.thread_ts !== parent?.ts)
      return fail('the update is not a reply in the checkout thread');
    const digits = post.text.replace(/(\d),(\d)/g, '$1$2');
    if (!digits.includes(issue?.count ?? '?') || !digits.includes(String(issue?.userCount)))
      return fail(`the reply lacks WEB-5D's ${issue?.count} events or ${issue?.userCount} users`);
    return pass('one reply in the checkout thread with the current figures');
  },
  scripts: {
    async code(model) {
      await findAndDescribe(
        model,
        ['slack channel history', 'get a sentry issue by id', 'reply in a slack thread'],
        ['slack.slack_get_channel_history', 'sentry.get_sentry_resource', 'slack.slack_reply_to_thread'],
      );
      const reply = await execute(
        model,
        `const { messages } = await slack.slack_get_channel_history({ channel_id: 'incidents', limit: 20 });
const thread = messages.find((m) => /checkout/i.test(m.text) && m.reply_count);
const id = thread.text.match(/\\b(?:WEB|API|WORKER|MOBILE)-[0-9A-Z]+\\b/)[0];
const s = await sentry.get_sentry_resource({ organizationSlug: 'acme', resourceType: 'issue', resourceId: id });
const text = 'Update from Sentry: ' + s.shortId + ' is ' + s.status + ', ' + s.count + ' events from ' + s.userCount + ' users so far, last seen ' + s.lastSeen + '.';
await slack.slack_reply_to_thread({ channel_id: 'incidents', thread_ts: thread.ts, text });
return text;`,
      );
      return `Replied in the thread: ${resultOf<string>(reply)}`;
    },
    async direct(model) {
      const [history] = await model.use(
        call('slack.slack_get_channel_history', { channel_id: 'incidents', limit: 20 }),
      );
      const thread = history
        ?.json<{ messages: SlackMessage[] }>()
        .messages.find((m) => /checkout/i.test(m.text) && m.reply_count);
      const [found] = await model.use(
        call('sentry.get_sentry_resource', {
          organizationSlug: 'acme',
          resourceType: 'issue',
          resourceId: SENTRY_ID.exec(thread?.text ?? '')?.[0],
        }),
      );
      const text = update(found?.json<SentryIssue>() as SentryIssue);
      await model.use(
        call('slack.slack_reply_to_thread', { channel_id: 'incidents', thread_ts: thread?.ts, text }),
      );
      return `Replied in the thread: ${text}`;
    },
  },
};
