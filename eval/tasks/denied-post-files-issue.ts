/**
 * A denial: the person refuses the Slack post; the prompt's fallback is a Linear issue in ENG.
 * Nothing reaches Slack and exactly one issue says what the post would have.
 */
import type { LinearIssue } from '../fixtures/services/linear-seed.ts';
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, fail, newIssues, newPosts, pass, resultOf } from './tracker-world.ts';

const TEXT = 'Heads up: the staging database is read-only until 3pm for the Postgres failover.';

export const task: EvalTask = {
  id: 'denied-post-files-issue',
  prompt: `Post in #eng: "${TEXT}" If you can't post to Slack, file it as a Linear issue in ENG instead.`,
  multiStep: true,
  traits: ['denial'],
  sources: ['slack', 'linear'],
  person: { deny: ['slack.slack_post_message'] },
  check(world) {
    if (newPosts(world).length > 0)
      return fail('something was posted to Slack although the person denied it');
    if (world.calls('slack').some((record) => record.tool === 'slack_post_message'))
      return fail('a denied post reached Slack');
    const created = newIssues(world);
    if (created.length !== 1) return fail(`expected one fallback issue, found ${created.length}`);
    const [issue] = created as [LinearIssue];
    const text = `${issue.title} ${issue.description}`.toLowerCase();
    if (issue.team.key !== 'ENG' || !text.includes('read-only') || !text.includes('staging'))
      return fail(`the fallback issue ${issue.identifier} does not carry the message`);
    return pass(`no post; ${issue.identifier} filed in ENG instead`);
  },
  scripts: {
    async code(model) {
      await findAndDescribe(
        model,
        ['post a message to a slack channel', 'create a linear issue'],
        ['slack.slack_post_message', 'linear.linear_create_issue'],
      );
      const reply = await execute(
        model,
        `const text = ${JSON.stringify(TEXT)};
try {
  await slack.slack_post_message({ channel_id: 'eng', text });
  return { posted: true };
} catch (error) {
  const made = await linear.linear_create_issue({ title: 'Staging database read-only until 3pm', teamId: 'ENG', description: text });
  return { posted: false, refused: String(error.message ?? error), issue: made.issue.identifier };
}`,
      );
      const result = resultOf<{ posted: boolean; issue?: string }>(reply);
      return result.posted
        ? 'Posted in #eng.'
        : `You declined the Slack post, so I filed ${result.issue} in ENG.`;
    },
    async direct(model) {
      const [posted] = await model.use(call('slack.slack_post_message', { channel_id: 'eng', text: TEXT }));
      if (!posted?.isError) return 'Posted in #eng.';
      const [made] = await model.use(
        call('linear.linear_create_issue', {
          title: 'Staging database read-only until 3pm',
          teamId: 'ENG',
          description: TEXT,
        }),
      );
      const issue = made?.json<{ issue: { identifier: string } }>().issue;
      return `You declined the Slack post, so I filed ${issue?.identifier} in ENG.`;
    },
  },
};
