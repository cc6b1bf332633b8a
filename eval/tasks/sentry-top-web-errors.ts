/**
 * A filter with one post: the three unresolved web errors seen this week that hit the most users,
 * in one #eng post (warnings and other projects left out).
 */
import type { SentryIssue } from '../fixtures/services/sentry-seed.ts';
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import {
  call,
  fail,
  idsIn,
  listed,
  newPosts,
  pass,
  resultOf,
  sameSet,
  sentryIssues,
} from './tracker-world.ts';

const QUERY = 'is:unresolved level:error lastSeen:-7d';
const WEEK_AGO = '2026-05-13T09:30:00.000Z';
const line = (issue: SentryIssue) =>
  `• ${issue.shortId} ${issue.title}: ${issue.userCount} users, ${issue.count} events`;

export const task: EvalTask = {
  id: 'sentry-top-web-errors',
  prompt: 'Post the 3 unresolved errors in our Sentry web project that hit the most users this week to #eng.',
  multiStep: true,
  traits: ['filter', 'approval'],
  sources: ['sentry', 'slack'],
  check(world) {
    const wanted = sentryIssues(world)
      .filter(
        (issue) => issue.project.slug === 'web' && issue.status === 'unresolved' && issue.level === 'error',
      )
      .filter((issue) => issue.lastSeen >= WEEK_AGO)
      .sort((a, b) => b.userCount - a.userCount)
      .slice(0, 3)
      .map((issue) => issue.shortId);
    const posts = newPosts(world);
    if (posts.length !== 1) return fail(`expected exactly one post, found ${posts.length}`);
    const [post] = posts as [(typeof posts)[0]];
    if (post.channel !== 'eng') return fail(`the post went to #${post.channel}`);
    const named = idsIn(post.text, /\bWEB-[0-9A-Z]+\b/g);
    if (!sameSet(named, wanted))
      return fail(`the post names ${listed(named)}; the top three are ${listed(wanted)}`);
    return pass(`#eng told about ${listed(wanted)}`);
  },
  scripts: {
    async code(model) {
      await findAndDescribe(
        model,
        ['search sentry issues', 'post a message to a slack channel'],
        ['sentry.search_issues', 'slack.slack_post_message'],
      );
      const reply = await execute(
        model,
        `const top = await sentry.search_issues({ organizationSlug: 'acme', projectSlugOrId: 'web', query: ${JSON.stringify(QUERY)}, sort: 'user', limit: 3 });
const text = 'Top web errors this week by users hit:\\n' + top.map((i) => '• ' + i.shortId + ' ' + i.title + ': ' + i.userCount + ' users, ' + i.count + ' events').join('\\n');
await slack.slack_post_message({ channel_id: 'eng', text });
return top.map((i) => i.shortId + ' (' + i.userCount + ' users)');`,
      );
      return `Posted to #eng: ${resultOf<string[]>(reply).join(', ')}.`;
    },
    async direct(model) {
      const [found] = await model.use(
        call('sentry.search_issues', {
          organizationSlug: 'acme',
          projectSlugOrId: 'web',
          query: QUERY,
          sort: 'user',
          limit: 3,
        }),
      );
      const top = found?.json<SentryIssue[]>() ?? [];
      await model.use(
        call('slack.slack_post_message', {
          channel_id: 'eng',
          text: `Top web errors this week by users hit:\n${top.map(line).join('\n')}`,
        }),
      );
      return `Posted to #eng: ${top.map((issue) => issue.shortId).join(', ')}.`;
    },
  },
};
