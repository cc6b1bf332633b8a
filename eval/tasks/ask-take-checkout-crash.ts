/**
 * Asked as a person asks: "I'll take the checkout crash, put it on me". The model finds who the
 * person is (whoami) and the crash by its words (WEB-5D), then assigns it. The checker: WEB-5D is
 * assigned to the person, no other Sentry issue changed.
 */
import { type SentryIssue, sentrySeed } from '../fixtures/services/sentry-seed.ts';
import { execute, findByAsking, seekIn } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, fail, pass, resultOf, sentryIssues } from './tracker-world.ts';

const PROMPT = "I'll take the checkout crash, put it on me";
const WHOAMI = 'sentry.whoami';
const SEARCH_ISSUES = 'sentry.search_issues';
const UPDATE = 'sentry.update_issue';
const SEARCH = { organizationSlug: 'acme', query: 'is:unresolved checkout', limit: 5 };

export const task: EvalTask = {
  id: 'ask-take-checkout-crash',
  prompt: PROMPT,
  multiStep: true,
  traits: ['outcome', 'approval'],
  sources: ['sentry'],
  check(world) {
    const before = new Map(sentrySeed().issues.map((issue) => [issue.shortId, issue]));
    const crash = sentryIssues(world).find((issue) => issue.shortId === 'WEB-5D');
    if (crash?.assignedTo?.name !== 'Dana Whitfield')
      return fail(`WEB-5D is assigned to ${crash?.assignedTo?.name ?? 'nobody'}, not the person`);
    const others = sentryIssues(world).filter((issue) => {
      const old = before.get(issue.shortId);
      return (
        issue.shortId !== 'WEB-5D' &&
        (old?.status !== issue.status || old.assignedTo?.id !== issue.assignedTo?.id)
      );
    });
    if (others.length > 0)
      return fail(`other issues changed too: ${others.map((i) => i.shortId).join(', ')}`);
    return pass('WEB-5D (the checkout crash) is the person’s now');
  },
  scripts: {
    async code(model) {
      // Sentry's issue tools by the words shown, then who the person is ("me"): its user.
      await findByAsking(
        model,
        PROMPT,
        [WHOAMI, SEARCH_ISSUES, UPDATE],
        [
          ...seekIn('sentry', [SEARCH_ISSUES, UPDATE], [{ query: 'search sentry issue' }], 25),
          ...seekIn('sentry', [WHOAMI], [{ query: 'user', namespace: 'sentry' }], 25),
        ],
      );
      const reply = await execute(
        model,
        `const [me, found] = await Promise.all([sentry.whoami({}), sentry.search_issues(${JSON.stringify(SEARCH)})]);
const crash = found[0];
await sentry.update_issue({ organizationSlug: 'acme', issueId: crash.shortId, assignedTo: 'user:' + me.id });
return crash.shortId + ' ' + crash.title;`,
      );
      return `Assigned to you: ${resultOf<string>(reply)}.`;
    },
    async direct(model) {
      const [me, found] = await model.use(call('sentry.whoami', {}), call('sentry.search_issues', SEARCH));
      const crash = found?.json<SentryIssue[]>()[0];
      await model.use(
        call('sentry.update_issue', {
          organizationSlug: 'acme',
          issueId: crash?.shortId,
          assignedTo: `user:${me?.json<{ id: string }>().id}`,
        }),
      );
      return `Assigned to you: ${crash?.shortId} ${crash?.title}.`;
    },
  },
};
