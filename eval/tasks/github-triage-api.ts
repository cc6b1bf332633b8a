/** A loop with a filter: every open, unlabelled issue of acme/api gets the needs-triage label. */
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import {
  call,
  changedGithubIssues,
  fail,
  listed,
  pass,
  resultOf,
  sameSet,
  seedOf,
} from './workspace-world.ts';

const wanted = () =>
  seedOf()
    .gh.issues.filter(
      (issue) => issue.repo === 'acme/api' && issue.state === 'open' && issue.labels.length === 0,
    )
    .map((issue) => issue.number);

export const task: EvalTask = {
  id: 'github-triage-api',
  prompt: 'Add the needs-triage label to every open issue in acme/api that has no labels yet.',
  multiStep: true,
  traits: ['loop', 'filter', 'approval'],
  sources: ['github'],
  check(world) {
    const changed = changedGithubIssues(world);
    const labelled = changed
      .filter(
        (issue) =>
          issue.repo === 'acme/api' && issue.labels.join() === 'needs-triage' && issue.state === 'open',
      )
      .map((issue) => String(issue.number));
    const want = wanted().map(String);
    if (!sameSet(labelled, want))
      return fail(`needs-triage on ${listed(labelled)}; expected ${listed(want)}`);
    if (changed.length !== want.length) return fail('other issues changed too');
    return pass(`labelled ${listed(want)}`);
  },
  scripts: {
    async code(model) {
      await findAndDescribe(
        model,
        ['list github issues', 'update github issue labels'],
        ['github.list_issues', 'github.update_issue'],
      );
      const reply = await execute(
        model,
        `const open = await github.list_issues({ owner: 'acme', repo: 'api', state: 'open', per_page: 100 });
const bare = open.filter((i) => i.labels.length === 0);
for (const i of bare) await github.update_issue({ owner: 'acme', repo: 'api', issue_number: i.number, labels: ['needs-triage'] });
return bare.map((i) => '#' + i.number + ' ' + i.title);`,
      );
      return `Labelled needs-triage: ${resultOf<string[]>(reply).join('; ')}.`;
    },
    async direct(model) {
      const [open] = await model.use(
        call('github.list_issues', { owner: 'acme', repo: 'api', state: 'open', per_page: 100 }),
      );
      const bare = (open?.json<{ number: number; labels: unknown[] }[]>() ?? []).filter(
        (issue) => issue.labels.length === 0,
      );
      await model.use(
        ...bare.map((issue) =>
          call('github.update_issue', {
            owner: 'acme',
            repo: 'api',
            issue_number: issue.number,
            labels: ['needs-triage'],
          }),
        ),
      );
      return `Labelled needs-triage: ${bare.map((issue) => `#${issue.number}`).join(', ')}.`;
    },
  },
};
