/** A loop: every unresolved timeout in the Sentry api project assigned to me (and nothing else). */
import { type SentryIssue, sentrySeed } from '../fixtures/services/sentry-seed.ts';
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, fail, listed, pass, resultOf, sameSet, sentryIssues } from './tracker-world.ts';

const QUERY = 'is:unresolved timeout';

export const task: EvalTask = {
  id: 'sentry-assign-timeouts',
  prompt: 'Assign every unresolved timeout error in the Sentry api project to me.',
  multiStep: true,
  traits: ['loop', 'approval'],
  sources: ['sentry'],
  check(world) {
    const before = new Map(sentrySeed().issues.map((issue) => [issue.shortId, issue]));
    const issues = sentryIssues(world);
    const wanted = issues
      .filter((issue) => issue.project.slug === 'api' && issue.status === 'unresolved')
      .filter((issue) => /timeout/i.test(issue.title) && before.get(issue.shortId)?.assignedTo === null)
      .map((issue) => issue.shortId);
    const assigned = issues
      .filter((issue) => issue.assignedTo?.id !== before.get(issue.shortId)?.assignedTo?.id)
      .map((issue) => issue.shortId);
    if (!sameSet(assigned, wanted)) return fail(`assigned ${listed(assigned)}; expected ${listed(wanted)}`);
    if (
      issues.some(
        (issue) =>
          issue.assignedTo !== null && issue.assignedTo.id !== '3000401' && assigned.includes(issue.shortId),
      )
    )
      return fail('an issue went to someone else');
    if (issues.some((issue) => issue.status !== before.get(issue.shortId)?.status))
      return fail('a status changed');
    return pass(`assigned ${listed(wanted)} to Dana`);
  },
  scripts: {
    async code(model) {
      await findAndDescribe(
        model,
        ['who am i in sentry', 'search sentry issues', 'assign a sentry issue'],
        ['sentry.whoami', 'sentry.search_issues', 'sentry.update_issue'],
      );
      const reply = await execute(
        model,
        `const me = await sentry.whoami({});
const found = await sentry.search_issues({ organizationSlug: 'acme', projectSlugOrId: 'api', query: ${JSON.stringify(QUERY)}, limit: 100 });
for (const i of found) await sentry.update_issue({ organizationSlug: 'acme', issueId: i.shortId, assignedTo: 'user:' + me.id });
return found.map((i) => i.shortId + ' ' + i.title);`,
      );
      return `Assigned to you: ${resultOf<string[]>(reply).join('; ')}.`;
    },
    async direct(model) {
      const [me, found] = await model.use(
        call('sentry.whoami'),
        call('sentry.search_issues', {
          organizationSlug: 'acme',
          projectSlugOrId: 'api',
          query: QUERY,
          limit: 100,
        }),
      );
      const id = me?.json<{ id: string }>().id;
      const issues = found?.json<SentryIssue[]>() ?? [];
      await model.use(
        ...issues.map((issue) =>
          call('sentry.update_issue', {
            organizationSlug: 'acme',
            issueId: issue.shortId,
            assignedTo: `user:${id}`,
          }),
        ),
      );
      return `Assigned to you: ${issues.map((issue) => issue.shortId).join(', ')}.`;
    },
  },
};
