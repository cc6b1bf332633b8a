/**
 * Asked as a person asks: "what's on my plate right now?" One read: the issues assigned to the
 * person (the tracker's viewer), the open ones told back. Its words match no tool: the model lists
 * the namespaces the answer names and picks the tracker's. The checker reads the call log: the
 * person's issues fetched, nothing changed.
 */
import { type LinearIssue, linearSeed } from '../fixtures/services/linear-seed.ts';
import { execute, findByAsking, seekIn } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, fail, pass, resultOf, writesTo } from './tracker-world.ts';

const PROMPT = "what's on my plate right now?";
const NEEDED = ['linear.linear_get_user_issues'];
const READS = ['linear_search_issues', 'linear_get_user_issues'];
const open = (issue: LinearIssue) => !['completed', 'canceled'].includes(issue.state.type);
const line = (issue: LinearIssue) => `${issue.identifier} ${issue.title} (${issue.state.name})`;

export const task: EvalTask = {
  id: 'ask-my-plate',
  prompt: PROMPT,
  multiStep: false,
  traits: ['outcome', 'single', 'filter'],
  sources: ['linear'],
  check(world) {
    const me = linearSeed().viewerId;
    const asked = world
      .calls('linear')
      .some(
        (record) =>
          (record.tool === 'linear_get_user_issues' && (record.args.userId ?? me) === me) ||
          (record.tool === 'linear_search_issues' && record.args.assigneeId === me),
      );
    if (!asked) return fail("the person's issues were never fetched");
    if (writesTo(world, 'linear', READS).length > 0) return fail('a question changed Linear');
    return pass("the person's issues read, nothing changed");
  },
  scripts: {
    async code(model) {
      // The person's own issues: Linear's by those words if an answer showed them, else its list (5 tools).
      await findByAsking(model, PROMPT, NEEDED, [
        ...seekIn('linear', NEEDED, [{ query: 'user issues', namespace: 'linear' }]),
      ]);
      const reply = await execute(
        model,
        `const { issues } = await linear.linear_get_user_issues({ limit: 100 });
return issues.filter((i) => !['completed', 'canceled'].includes(i.state.type)).map((i) => i.identifier + ' ' + i.title + ' (' + i.state.name + ')');`,
      );
      const mine = resultOf<string[]>(reply);
      return `${mine.length} open issues are yours:\n${mine.join('\n')}`;
    },
    async direct(model) {
      const [found] = await model.use(call('linear.linear_get_user_issues', { limit: 100 }));
      const mine = (found?.json<{ issues: LinearIssue[] }>().issues ?? []).filter(open);
      return `${mine.length} open issues are yours:\n${mine.map(line).join('\n')}`;
    },
  },
};
