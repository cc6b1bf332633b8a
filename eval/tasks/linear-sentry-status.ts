/**
 * A join with a loop: each of my in-progress Linear issues that links a Sentry issue gets a
 * comment with that Sentry issue's current status and event count.
 */
import type { LinearIssue } from '../fixtures/services/linear-seed.ts';
import type { SentryIssue } from '../fixtures/services/sentry-seed.ts';
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import {
  call,
  fail,
  linearState,
  listed,
  newComments,
  pass,
  resultOf,
  sameSet,
  sentryIssues,
} from './tracker-world.ts';

const SENTRY_ID = /\b(?:WEB|API|WORKER|MOBILE)-[0-9A-Z]+\b/;
const note = (issue: SentryIssue) =>
  `Sentry ${issue.shortId} is ${issue.status}: ${issue.count} events from ${issue.userCount} users, last seen ${issue.lastSeen}.`;

export const task: EvalTask = {
  id: 'linear-sentry-status',
  prompt:
    'For each of my in-progress Linear issues that links a Sentry issue, add a comment with the Sentry issue’s current status and event count.',
  multiStep: true,
  traits: ['join', 'loop', 'approval'],
  sources: ['linear', 'sentry'],
  check(world) {
    const state = linearState(world);
    const sentry = sentryIssues(world);
    const wanted = state.issues
      .filter((issue) => issue.assignee?.id === state.viewerId && issue.state.name === 'In Progress')
      .map((issue) => ({ issue, link: SENTRY_ID.exec(issue.description)?.[0] }))
      .filter((pair) => pair.link !== undefined);
    const added = newComments(world);
    const on = added.map((comment) => comment.issueIdentifier);
    const expected = wanted.map((pair) => pair.issue.identifier);
    if (!sameSet(on, expected))
      return fail(`comments on ${listed(on)}; expected one each on ${listed(expected)}`);
    for (const { issue, link } of wanted) {
      const events = sentry.find((candidate) => candidate.shortId === link)?.count ?? '?';
      const body = added.find((comment) => comment.issueIdentifier === issue.identifier)?.body ?? '';
      if (
        !body.replace(/[,.\s]/g, '').includes(events) &&
        !body.includes(Number(events).toLocaleString('en-US'))
      )
        return fail(`the comment on ${issue.identifier} lacks ${link}'s event count (${events})`);
    }
    return pass(`commented on ${listed(expected)}`);
  },
  scripts: {
    async code(model) {
      await findAndDescribe(
        model,
        ['issues assigned to me', 'get a sentry issue by id', 'comment on a linear issue'],
        ['linear.linear_get_user_issues', 'sentry.get_sentry_resource', 'linear.linear_add_comment'],
      );
      const reply = await execute(
        model,
        `const { issues } = await linear.linear_get_user_issues({ limit: 250 });
const done = [];
for (const i of issues.filter((i) => i.state.name === 'In Progress')) {
  const link = i.description.match(/\\b(?:WEB|API|WORKER|MOBILE)-[0-9A-Z]+\\b/)?.[0];
  if (!link) continue;
  const s = await sentry.get_sentry_resource({ organizationSlug: 'acme', resourceType: 'issue', resourceId: link });
  await linear.linear_add_comment({ issueId: i.id, body: 'Sentry ' + s.shortId + ' is ' + s.status + ': ' + s.count + ' events from ' + s.userCount + ' users, last seen ' + s.lastSeen + '.' });
  done.push(i.identifier + ' ← ' + s.shortId + ' (' + s.status + ', ' + s.count + ' events)');
}
return done;`,
      );
      return `Commented: ${resultOf<string[]>(reply).join('; ')}.`;
    },
    async direct(model) {
      const [sample] = await model.use(call('linear.linear_get_user_issues', { limit: 1 }));
      const me = sample?.json<{ issues: LinearIssue[] }>().issues[0]?.assignee?.id;
      const [mine] = await model.use(
        call('linear.linear_search_issues', { assigneeId: me, status: 'In Progress', limit: 100 }),
      );
      const linked = (mine?.json<{ issues: LinearIssue[] }>().issues ?? [])
        .map((issue) => ({ issue, link: SENTRY_ID.exec(issue.description)?.[0] ?? '' }))
        .filter((pair) => pair.link !== '');
      const found = await model.use(
        ...linked.map(({ link }) =>
          call('sentry.get_sentry_resource', {
            organizationSlug: 'acme',
            resourceType: 'issue',
            resourceId: link,
          }),
        ),
      );
      await model.use(
        ...linked.map(({ issue }, i) =>
          call('linear.linear_add_comment', {
            issueId: issue.id,
            body: note(found[i]?.json<SentryIssue>() as SentryIssue),
          }),
        ),
      );
      return `Commented on ${linked.map(({ issue }) => issue.identifier).join(', ')}.`;
    },
  },
};
