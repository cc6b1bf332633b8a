/** One call does it: resolve a Sentry issue named by its short id and organization. */

import { sentrySeed } from '../fixtures/services/sentry-seed.ts';
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, fail, listed, pass, sentryIssues } from './tracker-world.ts';

export const task: EvalTask = {
  id: 'sentry-resolve-api-3r',
  prompt: 'resolve API-3R in Sentry (org acme), the SSO fix shipped',
  multiStep: false,
  traits: ['single', 'approval'],
  sources: ['sentry'],
  check(world) {
    const before = new Map(sentrySeed().issues.map((issue) => [issue.shortId, issue.status]));
    const changed = sentryIssues(world).filter((issue) => before.get(issue.shortId) !== issue.status);
    const target = changed.find((issue) => issue.shortId === 'API-3R');
    if (target?.status !== 'resolved') return fail('API-3R is not resolved');
    if (changed.length > 1)
      return fail(`other issues changed: ${listed(changed.map((issue) => issue.shortId))}`);
    return pass('API-3R resolved, nothing else');
  },
  scripts: {
    async code(model) {
      await findAndDescribe(model, ['resolve a sentry issue'], ['sentry.update_issue']);
      await execute(
        model,
        `return await sentry.update_issue({ organizationSlug: 'acme', issueId: 'API-3R', status: 'resolved' });`,
      );
      return 'API-3R is resolved.';
    },
    async direct(model) {
      await model.use(
        call('sentry.update_issue', { organizationSlug: 'acme', issueId: 'API-3R', status: 'resolved' }),
      );
      return 'API-3R is resolved.';
    },
  },
};
