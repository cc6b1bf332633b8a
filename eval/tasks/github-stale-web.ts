/** A filter and a loop: a nudge on every open acme/web issue not updated since February 2026. */
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, fail, listed, newGithubComments, pass, resultOf, sameSet, seedOf } from './workspace-world.ts';

const BEFORE = '2026-02-01';
const BODY = 'Is this still relevant? We will close it in two weeks if we hear nothing.';

const wanted = () =>
  seedOf()
    .gh.issues.filter(
      (issue) => issue.repo === 'acme/web' && issue.state === 'open' && issue.updated_at < BEFORE,
    )
    .map((issue) => `#${issue.number}`);

export const task: EvalTask = {
  id: 'github-stale-web',
  prompt: `Find the open issues in acme/web that haven't been updated since February and comment on each: "${BODY}"`,
  multiStep: true,
  traits: ['filter', 'loop', 'approval'],
  sources: ['github'],
  check(world) {
    const on = newGithubComments(world).map(
      (comment) => `${comment.repo === 'acme/web' ? '' : comment.repo}#${comment.issue_number}`,
    );
    if (!sameSet(on, wanted()))
      return fail(`comments on ${listed(on)}; expected one each on ${listed(wanted())}`);
    return pass(`nudged ${listed(wanted())}`);
  },
  scripts: {
    async code(model) {
      await findAndDescribe(
        model,
        ['search github issues', 'comment on a github issue'],
        ['github.search_issues', 'github.add_issue_comment'],
      );
      const reply = await execute(
        model,
        `const { items } = await github.search_issues({ q: 'repo:acme/web is:issue is:open updated:<${BEFORE}', per_page: 100 });
for (const i of items) await github.add_issue_comment({ owner: 'acme', repo: 'web', issue_number: i.number, body: ${JSON.stringify(BODY)} });
return items.map((i) => '#' + i.number + ' ' + i.title);`,
      );
      return `Asked on ${resultOf<string[]>(reply).join('; ')}.`;
    },
    async direct(model) {
      const [found] = await model.use(
        call('github.search_issues', {
          q: `repo:acme/web is:issue is:open updated:<${BEFORE}`,
          per_page: 100,
        }),
      );
      const items = found?.json<{ items: { number: number }[] }>().items ?? [];
      await model.use(
        ...items.map((issue) =>
          call('github.add_issue_comment', {
            owner: 'acme',
            repo: 'web',
            issue_number: issue.number,
            body: BODY,
          }),
        ),
      );
      return `Asked on ${items.map((issue) => `#${issue.number}`).join(', ')}.`;
    },
  },
};
