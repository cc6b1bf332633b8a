/** One call does it: the status of ENG-142 (a read: the checker reads the call the tracker saw). */
import type { LinearIssue } from '../fixtures/services/linear-seed.ts';
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, fail, pass, resultOf, writesTo } from './tracker-world.ts';

const READS = ['linear_search_issues', 'linear_get_user_issues'];

export const task: EvalTask = {
  id: 'linear-status-eng-142',
  prompt: "what's the status of ENG-142?",
  multiStep: false,
  traits: ['single'],
  sources: ['linear'],
  check(world) {
    const looked = world.calls('linear').some(
      (record) =>
        record.tool === 'linear_search_issues' &&
        String(record.args.query ?? '')
          .toUpperCase()
          .includes('ENG-142'),
    );
    if (!looked) return fail('ENG-142 was never looked up');
    if (writesTo(world, 'linear', READS).length > 0) return fail('a question changed Linear');
    return pass('ENG-142 looked up, nothing changed');
  },
  scripts: {
    async code(model) {
      await findAndDescribe(model, ['find a linear issue by identifier'], ['linear.linear_search_issues']);
      const reply = await execute(
        model,
        `const { issues } = await linear.linear_search_issues({ query: 'ENG-142', limit: 1 });
const i = issues[0];
return { identifier: i.identifier, title: i.title, state: i.state.name, assignee: i.assignee?.name, priority: i.priorityLabel };`,
      );
      const issue = resultOf<{ identifier: string; title: string; state: string; assignee: string }>(reply);
      return `${issue.identifier} (${issue.title}) is ${issue.state}, assigned to ${issue.assignee}.`;
    },
    async direct(model) {
      const [reply] = await model.use(call('linear.linear_search_issues', { query: 'ENG-142', limit: 1 }));
      const issue = reply?.json<{ issues: LinearIssue[] }>().issues[0];
      return `${issue?.identifier} (${issue?.title}) is ${issue?.state.name}, assigned to ${issue?.assignee?.name}.`;
    },
  },
};
