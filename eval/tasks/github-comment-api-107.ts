/** One call does it: one comment on acme/api#107. */
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, fail, newGithubComments, pass } from './workspace-world.ts';

const BODY = 'Fixed in #140: retries now honour Retry-After.';

export const task: EvalTask = {
  id: 'github-comment-api-107',
  prompt: `comment on acme/api issue 107: "${BODY}"`,
  multiStep: false,
  traits: ['single', 'approval'],
  sources: ['github'],
  check(world) {
    const added = newGithubComments(world);
    if (added.length !== 1) return fail(`expected one new comment, found ${added.length}`);
    const [comment] = added;
    if (comment?.repo !== 'acme/api' || comment.issue_number !== 107)
      return fail('the comment is not on acme/api#107');
    if (!comment.body.includes('Retry-After')) return fail('the comment does not say what was asked');
    return pass('commented on acme/api#107');
  },
  scripts: {
    async code(model) {
      await findAndDescribe(model, ['comment on a github issue'], ['github.add_issue_comment']);
      await execute(
        model,
        `return await github.add_issue_comment({ owner: 'acme', repo: 'api', issue_number: 107, body: ${JSON.stringify(BODY)} });`,
      );
      return 'Commented on acme/api#107.';
    },
    async direct(model) {
      await model.use(
        call('github.add_issue_comment', { owner: 'acme', repo: 'api', issue_number: 107, body: BODY }),
      );
      return 'Commented on acme/api#107.';
    },
  },
};
