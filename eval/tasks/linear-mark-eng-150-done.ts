/** One call does it: move ENG-150 to Done. */
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, changedIssues, fail, listed, newComments, newIssues, pass } from './tracker-world.ts';

export const task: EvalTask = {
  id: 'linear-mark-eng-150-done',
  prompt: 'mark ENG-150 as done',
  multiStep: false,
  traits: ['single', 'approval'],
  sources: ['linear'],
  check(world) {
    const changed = changedIssues(world);
    const target = changed.find((issue) => issue.identifier === 'ENG-150');
    if (target?.state.name !== 'Done') return fail('ENG-150 is not Done');
    const others = changed.filter((issue) => issue !== target).map((issue) => issue.identifier);
    if (others.length > 0) return fail(`other issues changed too: ${listed(others)}`);
    if (target.title !== 'Rotate the staging TLS certificates') return fail('ENG-150 lost its title');
    if (newIssues(world).length + newComments(world).length > 0) return fail('issues or comments were added');
    return pass('ENG-150 is Done, nothing else changed');
  },
  scripts: {
    async code(model) {
      await findAndDescribe(model, ['update a linear issue status'], ['linear.linear_update_issue']);
      await execute(model, `return await linear.linear_update_issue({ id: 'ENG-150', status: 'Done' });`);
      return 'ENG-150 is now Done.';
    },
    async direct(model) {
      await model.use(call('linear.linear_update_issue', { id: 'ENG-150', status: 'Done' }));
      return 'ENG-150 is now Done.';
    },
  },
};
