/**
 * Asked as a person asks: "the footer links on the website point to the right docs now, close that
 * out". The model finds the issue by its words (acme/web#12) and closes it; no other issue changes.
 */
import { execute, findByAsking, seekIn } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, changedGithubIssues, fail, githubIssue, pass, resultOf } from './workspace-world.ts';

const PROMPT = 'the footer links on the website point to the right docs now, close that out';
const NEEDED = ['github.search_issues', 'github.update_issue'];
const SEARCH = { q: 'footer links is:open' };

interface Found {
  items: { number: number; title: string; repository_url: string }[];
}
const repoOf = (url: string) => url.split('/').slice(-2);

export const task: EvalTask = {
  id: 'ask-footer-fixed',
  prompt: PROMPT,
  multiStep: true,
  traits: ['outcome', 'approval'],
  sources: ['github'],
  check(world) {
    const footer = githubIssue(world, 'acme/web', 12);
    if (footer?.state !== 'closed') return fail('acme/web#12 (the footer links) is still open');
    const others = changedGithubIssues(world).filter(
      (issue) => issue.repo !== 'acme/web' || issue.number !== 12,
    );
    if (others.length > 0)
      return fail(
        `other issues changed: ${others.map((issue) => `${issue.repo}#${issue.number}`).join(', ')}`,
      );
    return pass('acme/web#12 closed, nothing else changed');
  },
  scripts: {
    async code(model) {
      // GitHub's issue search, by the words of the tools the first answer showed (else github's list).
      await findByAsking(model, PROMPT, NEEDED, [
        ...seekIn(
          'github',
          NEEDED,
          [{ query: 'search github issues' }, { query: 'search github issue' }],
          25,
        ),
      ]);
      const reply = await execute(
        model,
        `const { items } = await github.search_issues(${JSON.stringify(SEARCH)});
const issue = items[0];
const [owner, repo] = issue.repository_url.split('/').slice(-2);
await github.update_issue({ owner, repo, issue_number: issue.number, state: 'closed' });
return owner + '/' + repo + '#' + issue.number + ' ' + issue.title;`,
      );
      return `Closed ${resultOf<string>(reply)}.`;
    },
    async direct(model) {
      const [found] = await model.use(call('github.search_issues', SEARCH));
      const issue = found?.json<Found>().items[0];
      const [owner, repo] = repoOf(issue?.repository_url ?? '');
      await model.use(
        call('github.update_issue', { owner, repo, issue_number: issue?.number, state: 'closed' }),
      );
      return `Closed ${owner}/${repo}#${issue?.number} ${issue?.title}.`;
    },
  },
};
