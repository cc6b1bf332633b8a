/**
 * A denial: the person refuses closing ENG-160; the prompt's fallback is a comment saying it can
 * be closed. ENG-160 keeps its state and gets exactly that one comment.
 */
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, changedIssues, fail, newComments, pass, resultOf } from './tracker-world.ts';

const NOTE = 'The v1 export endpoint is gone in production since Monday; this can be closed.';

export const task: EvalTask = {
  id: 'denied-close-comments',
  prompt: `Close ENG-160 as done. If that's not allowed, leave a comment on it instead: "${NOTE}"`,
  multiStep: true,
  traits: ['denial'],
  sources: ['linear'],
  person: { deny: ['linear.linear_update_issue'] },
  check(world) {
    if (changedIssues(world).length > 0)
      return fail('an issue changed although the person denied the update');
    if (world.calls('linear').some((record) => record.tool === 'linear_update_issue'))
      return fail('a denied update reached Linear');
    const added = newComments(world);
    if (added.length !== 1) return fail(`expected one fallback comment, found ${added.length}`);
    const [comment] = added as [(typeof added)[0]];
    if (comment.issueIdentifier !== 'ENG-160' || !comment.body.includes('can be closed'))
      return fail(`the comment on ${comment.issueIdentifier} is not the fallback note`);
    return pass('ENG-160 untouched, the note left as a comment');
  },
  scripts: {
    async code(model) {
      await findAndDescribe(
        model,
        ['update a linear issue status', 'comment on a linear issue'],
        ['linear.linear_update_issue', 'linear.linear_add_comment'],
      );
      const reply = await execute(
        model,
        `try {
  await linear.linear_update_issue({ id: 'ENG-160', status: 'Done' });
  return 'closed';
} catch {
  await linear.linear_add_comment({ issueId: 'ENG-160', body: ${JSON.stringify(NOTE)} });
  return 'commented';
}`,
      );
      return resultOf<string>(reply) === 'closed'
        ? 'ENG-160 is Done.'
        : 'You declined closing ENG-160, so I left the note as a comment on it.';
    },
    async direct(model) {
      const [closed] = await model.use(call('linear.linear_update_issue', { id: 'ENG-160', status: 'Done' }));
      if (!closed?.isError) return 'ENG-160 is Done.';
      await model.use(call('linear.linear_add_comment', { issueId: 'ENG-160', body: NOTE }));
      return 'You declined closing ENG-160, so I left the note as a comment on it.';
    },
  },
};
