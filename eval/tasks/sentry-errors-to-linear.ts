/**
 * A join with a loop: every unresolved Sentry error with more than 1,000 events that no Linear
 * issue mentions yet gets one new ENG issue naming it (the ones already filed get none).
 */
import type { LinearIssue } from '../fixtures/services/linear-seed.ts';
import type { SentryIssue } from '../fixtures/services/sentry-seed.ts';
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import {
  call,
  changedIssues,
  fail,
  idsIn,
  linearState,
  listed,
  newIssues,
  pass,
  resultOf,
  sameSet,
  seedIssue,
  sentryIssues,
} from './tracker-world.ts';

const QUERY = 'is:unresolved level:error times_seen:>1000';

const issueFor = (issue: SentryIssue) => ({
  title: `[Sentry ${issue.shortId}] ${issue.title}`.slice(0, 200),
  teamId: 'ENG',
  description: `${issue.count} events, ${issue.userCount} users, last seen ${issue.lastSeen}.\n\n${issue.culprit}\n${issue.permalink}`,
  priority: 2,
});

export const task: EvalTask = {
  id: 'sentry-errors-to-linear',
  prompt:
    "File a Linear issue in ENG for every unresolved Sentry error with more than 1,000 events that doesn't already have one. Put the Sentry ID in the title.",
  multiStep: true,
  traits: ['join', 'loop', 'approval'],
  sources: ['sentry', 'linear'],
  check(world) {
    const linked = (shortId: string) =>
      linearState(world).issues.some(
        (issue) => seedIssue(issue.identifier) && `${issue.title} ${issue.description}`.includes(shortId),
      );
    const wanted = sentryIssues(world)
      .filter(
        (issue) => issue.status === 'unresolved' && issue.level === 'error' && Number(issue.count) > 1000,
      )
      .map((issue) => issue.shortId)
      .filter((shortId) => !linked(shortId));
    const created = newIssues(world);
    const named = created.flatMap((issue) => idsIn(issue.title).filter((id) => !id.startsWith('ENG-')));
    if (!sameSet(named, wanted)) return fail(`new issues name ${listed(named)}; expected ${listed(wanted)}`);
    if (created.length !== wanted.length)
      return fail(`${created.length} issues created for ${wanted.length} errors`);
    if (created.some((issue) => issue.team.key !== 'ENG')) return fail('an issue was filed outside ENG');
    if (changedIssues(world).length > 0) return fail('existing issues were changed');
    return pass(`filed ${listed(wanted)} in ENG`);
  },
  scripts: {
    async code(model) {
      await findAndDescribe(
        model,
        ['search sentry issues', 'search linear issues', 'create a linear issue'],
        ['sentry.search_issues', 'linear.linear_search_issues', 'linear.linear_create_issue'],
      );
      const reply = await execute(
        model,
        `const errors = (await sentry.search_issues({ organizationSlug: 'acme', query: ${JSON.stringify(QUERY)}, sort: 'freq', limit: 100 }))
  .filter((e) => Number(e.count) > 1000);
const filed = [], skipped = [];
for (const e of errors) {
  const { issues } = await linear.linear_search_issues({ query: e.shortId, limit: 1 });
  if (issues.length > 0) { skipped.push(e.shortId + ' → ' + issues[0].identifier); continue; }
  const made = await linear.linear_create_issue({
    title: ('[Sentry ' + e.shortId + '] ' + e.title).slice(0, 200), teamId: 'ENG', priority: 2,
    description: e.count + ' events, ' + e.userCount + ' users, last seen ' + e.lastSeen + '.\\n\\n' + e.culprit + '\\n' + e.permalink,
  });
  filed.push(e.shortId + ' → ' + made.issue.identifier);
}
return { filed, skipped };`,
      );
      const { filed, skipped } = resultOf<{ filed: string[]; skipped: string[] }>(reply);
      return `Filed ${filed.length} issues (${filed.join(', ')}); already tracked: ${skipped.join(', ')}.`;
    },
    async direct(model) {
      const [found] = await model.use(
        call('sentry.search_issues', { organizationSlug: 'acme', query: QUERY, sort: 'freq', limit: 100 }),
      );
      const errors = (found?.json<SentryIssue[]>() ?? []).filter((issue) => Number(issue.count) > 1000);
      const searches = await model.use(
        ...errors.map((issue) => call('linear.linear_search_issues', { query: issue.shortId, limit: 1 })),
      );
      const missing = errors.filter(
        (_, i) => (searches[i]?.json<{ issues: LinearIssue[] }>().issues.length ?? 0) === 0,
      );
      await model.use(...missing.map((issue) => call('linear.linear_create_issue', issueFor(issue))));
      return `Filed ${missing.length} issues: ${missing.map((issue) => issue.shortId).join(', ')}.`;
    },
  },
};
