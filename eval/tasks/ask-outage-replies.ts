/**
 * Asked as a person asks: "did anyone reply about the outage?" A read over three calls: the
 * channels (to find #incidents), its history (the thread with replies), the thread's replies. The
 * checker reads the call log: the outage thread's replies fetched, nothing posted or reacted.
 */
import type { SlackChannel, SlackMessage, SlackState } from '../fixtures/services/slack.ts';
import { execute, findByAsking, seekIn } from '../script-kit.ts';
import type { EvalTask, WorldView } from '../task.ts';
import { call, fail, pass, resultOf, writesTo } from './tracker-world.ts';

const PROMPT = 'did anyone reply about the outage?';
const NEEDED = [
  'slack.slack_list_channels',
  'slack.slack_get_channel_history',
  'slack.slack_get_thread_replies',
];
const READS = [
  'slack_list_channels',
  'slack_get_channel_history',
  'slack_get_thread_replies',
  'slack_get_users',
  'slack_get_user_profile',
];

/** The #incidents thread about the outage (the one top-level message there with replies). */
function outage(world: WorldView): { channel: SlackChannel; ts: string } | undefined {
  const state = world.state<SlackState>('slack');
  const channel = state.channels.find((candidate) => candidate.name === 'incidents');
  const parent = channel && state.messages[channel.id]?.find((message) => (message.reply_count ?? 0) > 0);
  return channel && parent ? { channel, ts: parent.ts } : undefined;
}

const replyLines = (messages: readonly SlackMessage[]) =>
  messages
    .slice(1)
    .map((message) => `${message.user}: ${message.text}`)
    .join('\n');

export const task: EvalTask = {
  id: 'ask-outage-replies',
  prompt: PROMPT,
  multiStep: true,
  traits: ['outcome'],
  sources: ['slack'],
  check(world) {
    const thread = outage(world);
    if (!thread) return fail('the outage thread is gone');
    const read = world.calls('slack').some((record) => {
      const channel = String(record.args.channel_id ?? '').replace(/^#/, '');
      return (
        record.tool === 'slack_get_thread_replies' &&
        (channel === thread.channel.id || channel === thread.channel.name) &&
        record.args.thread_ts === thread.ts
      );
    });
    if (!read) return fail("the outage thread's replies were never read");
    const writes = writesTo(world, 'slack', READS);
    if (writes.length > 0) return fail(`a question changed Slack (${writes[0]?.tool})`);
    return pass('the outage thread read, nothing posted');
  },
  scripts: {
    async code(model) {
      // The thread tools, and the channels and their history: slack's list (8 tools).
      await findByAsking(model, PROMPT, NEEDED, seekIn('slack', NEEDED));
      const reply = await execute(
        model,
        `const { channels } = await slack.slack_list_channels({});
const channel = channels.find((c) => /incident/i.test(c.name + ' ' + c.purpose.value));
const { messages } = await slack.slack_get_channel_history({ channel_id: channel.id, limit: 20 });
const thread = messages.find((m) => m.reply_count > 0);
const replies = await slack.slack_get_thread_replies({ channel_id: channel.id, thread_ts: thread.ts });
return { about: thread.text, replies: replies.messages.slice(1).map((m) => m.user + ': ' + m.text) };`,
      );
      const { about, replies } = resultOf<{ about: string; replies: string[] }>(reply);
      return `Yes, ${replies.length} replies to "${about}":\n${replies.join('\n')}`;
    },
    async direct(model) {
      const [listed] = await model.use(call('slack.slack_list_channels', {}));
      const channel = listed
        ?.json<{ channels: SlackChannel[] }>()
        .channels.find((candidate) => /incident/i.test(`${candidate.name} ${candidate.purpose.value}`));
      const [history] = await model.use(
        call('slack.slack_get_channel_history', { channel_id: channel?.id, limit: 20 }),
      );
      const thread = history
        ?.json<{ messages: SlackMessage[] }>()
        .messages.find((message) => (message.reply_count ?? 0) > 0);
      const [replies] = await model.use(
        call('slack.slack_get_thread_replies', { channel_id: channel?.id, thread_ts: thread?.ts }),
      );
      const messages = replies?.json<{ messages: SlackMessage[] }>().messages ?? [];
      return `Yes, ${messages.length - 1} replies to "${thread?.text}":\n${replyLines(messages)}`;
    },
  },
};
