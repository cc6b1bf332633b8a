/** One call does it: a comment on ENG-131. */
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, fail, newComments, pass } from './tracker-world.ts';

const BODY = "Repro'd on staging, looking into it";

export const task: EvalTask = {
  id: 'linear-comment-eng-131',
  prompt: `comment on ENG-131: "${BODY}"`,
  multiStep: false,
  traits: ['single', 'approval'],
  sources: ['linear'],
  check(world) {
    const added = newComments(world);
    if (added.length !== 1) return fail(`expected one new comment, found ${added.length}`);
    const [comment] = added as [(typeof added)[0]];
    if (comment.issueIdentifier !== 'ENG-131') return fail(`the comment went on ${comment.issueIdentifier}`);
    if (!comment.body.includes("Repro'd on staging")) return fail(`the comment says "${comment.body}"`);
    return pass('one comment on ENG-131');
  },
  scripts: {
    async code(model) {
      await findAndDescribe(model, ['comment on a linear issue'], ['linear.linear_add_comment']);
      await execute(
        model,
        `return await linear.linear_add_comment({ issueId: 'ENG-131', body: ${JSON.stringify(BODY)} });`,
      );
      return 'Commented on ENG-131.';
    },
    async direct(model) {
      await model.use(call('linear.linear_add_comment', { issueId: 'ENG-131', body: BODY }));
      return 'Commented on ENG-131.';
    },
  },
};
