/**
 * Asked as a person asks: "what's still broken for the web app users?" One read: the web
 * project's unresolved Sentry issues, by users hit. The checker reads the call log (the web
 * project searched for unresolved issues) and that nothing in Sentry changed.
 */
import type { SentryIssue } from '../fixtures/services/sentry-seed.ts';
import { execute, findByAsking, seekIn } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, fail, pass, resultOf, writesTo } from './tracker-world.ts';

const PROMPT = "what's still broken for the web app users?";
const NEEDED = ['sentry.search_issues'];
const SEARCH = {
  organizationSlug: 'acme',
  projectSlugOrId: 'web',
  query: 'is:unresolved',
  sort: 'user',
  limit: 25,
};
const READS = ['whoami', 'find_organizations', 'find_projects', 'search_issues', 'get_sentry_resource'];
const line = (issue: Pick<SentryIssue, 'shortId' | 'title' | 'userCount'>) =>
  `${issue.shortId} ${issue.title} (${issue.userCount} users)`;

export const task: EvalTask = {
  id: 'ask-web-broken',
  prompt: PROMPT,
  multiStep: false,
  traits: ['outcome', 'single', 'filter'],
  sources: ['sentry'],
  check(world) {
    const asked = world.calls('sentry').some((record) => {
      if (record.tool !== 'search_issues') return false;
      const query = String(record.args.query ?? 'is:unresolved');
      const web = record.args.projectSlugOrId === 'web' || /\bproject:web\b/.test(query);
      return web && /\bis:unresolved\b/.test(query);
    });
    if (!asked) return fail("the web project's unresolved issues were never searched");
    const writes = writesTo(world, 'sentry', READS);
    if (writes.length > 0) return fail(`a question changed Sentry (${writes[0]?.tool})`);
    return pass("the web project's unresolved issues read, nothing changed");
  },
  scripts: {
    async code(model) {
      // Sentry's issue search, by the words shown (else sentry's list).
      await findByAsking(model, PROMPT, NEEDED, [
        ...seekIn(
          'sentry',
          NEEDED,
          [{ query: 'search sentry issues' }, { query: 'search sentry issue' }],
          25,
        ),
      ]);
      const reply = await execute(
        model,
        `const issues = await sentry.search_issues(${JSON.stringify(SEARCH)});
return issues.map((i) => i.shortId + ' ' + i.title + ' (' + i.userCount + ' users)');`,
      );
      return `Still broken on web:\n${resultOf<string[]>(reply).join('\n')}`;
    },
    async direct(model) {
      const [found] = await model.use(call('sentry.search_issues', SEARCH));
      return `Still broken on web:\n${(found?.json<SentryIssue[]>() ?? []).map(line).join('\n')}`;
    },
  },
};
