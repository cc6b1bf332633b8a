/** One call does it: close acme/web#12 (and nothing else). */
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import {
  call,
  changedGithubIssues,
  fail,
  githubIssue,
  listed,
  newGithubIssues,
  pass,
} from './workspace-world.ts';

export const task: EvalTask = {
  id: 'github-close-web-12',
  prompt: 'close acme/web#12, the footer links got fixed in the last deploy',
  multiStep: false,
  traits: ['single', 'approval'],
  sources: ['github'],
  check(world) {
    if (githubIssue(world, 'acme/web', 12)?.state !== 'closed') return fail('acme/web#12 is still open');
    const others = changedGithubIssues(world)
      .filter((issue) => !(issue.repo === 'acme/web' && issue.number === 12))
      .map((issue) => `${issue.repo}#${issue.number}`);
    if (others.length > 0) return fail(`other issues changed too: ${listed(others)}`);
    if (newGithubIssues(world).length > 0) return fail('an issue was created');
    return pass('acme/web#12 closed, nothing else changed');
  },
  scripts: {
    async code(model) {
      await findAndDescribe(model, ['update github issue state'], ['github.update_issue']);
      await execute(
        model,
        `return await github.update_issue({ owner: 'acme', repo: 'web', issue_number: 12, state: 'closed' });`,
      );
      return 'Closed acme/web#12.';
    },
    async direct(model) {
      await model.use(
        call('github.update_issue', { owner: 'acme', repo: 'web', issue_number: 12, state: 'closed' }),
      );
      return 'Closed acme/web#12.';
    },
  },
};
