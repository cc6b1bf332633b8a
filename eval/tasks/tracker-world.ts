/**
 * What the tracker tasks (linear, slack, sentry) share: reading the end world against the seed
 * (new issues, new comments, new posts, changed records), the verdict shorthands, a direct call
 * by address, and the result of a code-arm `execute`.
 */
import {
  type LinearComment,
  type LinearIssue,
  type LinearState,
  linearSeed,
} from '../fixtures/services/linear-seed.ts';
import type { SentryIssue, SentryState } from '../fixtures/services/sentry-seed.ts';
import { BASE_TS, type SlackMessage, type SlackState } from '../fixtures/services/slack.ts';
import { NOW } from '../fixtures/services/tracker-kit.ts';
import type { ToolReply, ToolUse, Verdict, WorldView } from '../task.ts';

export const pass = (why: string): Verdict => ({ ok: true, why });
export const fail = (why: string): Verdict => ({ ok: false, why });

/** A direct-arm call by address (`linear.linear_search_issues`). */
export const call = (address: string, input: Record<string, unknown> = {}): ToolUse => ({
  name: address,
  input,
});

/** What `execute` returned (the envelope's `result`), for the code arm's final answer. */
export function resultOf<T>(reply: ToolReply): T {
  const envelope = reply.structured as { status?: string; result?: unknown } | undefined;
  if (envelope?.status !== 'completed') throw new Error(`execute did not complete: ${reply.text}`);
  return envelope.result as T;
}

let seedIssues: Map<string, LinearIssue> | undefined;
/** The seed's issues by identifier (the tasks do not change the linear seed). */
export function seedIssue(identifier: string): LinearIssue | undefined {
  seedIssues ??= new Map(linearSeed().issues.map((issue) => [issue.identifier, issue]));
  return seedIssues.get(identifier);
}

export const linearState = (world: WorldView) => world.state<LinearState>('linear');

/** Issues the run created (identifiers the seed lacks). */
export const newIssues = (world: WorldView): LinearIssue[] =>
  linearState(world).issues.filter((issue) => !seedIssue(issue.identifier));

/** Issues whose title, description, priority or state the run changed. */
export const changedIssues = (world: WorldView): LinearIssue[] =>
  linearState(world).issues.filter((issue) => {
    const before = seedIssue(issue.identifier);
    return (
      before !== undefined &&
      (before.title !== issue.title ||
        before.description !== issue.description ||
        before.priority !== issue.priority ||
        before.state.name !== issue.state.name)
    );
  });

/** Comments the run added (the seed's are dated before the world's now). */
export const newComments = (world: WorldView): LinearComment[] =>
  linearState(world).comments.filter((comment) => comment.createdAt >= NOW);

export interface Post extends SlackMessage {
  channel: string;
}

/** Messages the run posted (top-level and thread replies), with their channel's name. */
export function newPosts(world: WorldView): Post[] {
  const state = world.state<SlackState>('slack');
  const posts: Post[] = [];
  for (const channel of state.channels) {
    for (const message of state.messages[channel.id] ?? []) {
      if (Number(message.ts) > BASE_TS) posts.push({ ...message, channel: channel.name });
    }
  }
  return posts;
}

/** Messages of `channel` (by name) as they are now. */
export function messagesIn(world: WorldView, channel: string): SlackMessage[] {
  const state = world.state<SlackState>('slack');
  const id = state.channels.find((candidate) => candidate.name === channel)?.id ?? '';
  return state.messages[id] ?? [];
}

export const sentryIssues = (world: WorldView): SentryIssue[] => world.state<SentryState>('sentry').issues;

/** The calls that reached `namespace` and could have changed it (any tool but the listed reads). */
export const writesTo = (world: WorldView, namespace: string, reads: readonly string[]) =>
  world.calls(namespace).filter((record) => !reads.includes(record.tool));

/** `A, B and C`. */
export const listed = (items: readonly string[]) =>
  items.length <= 1 ? (items[0] ?? 'none') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** Whether two lists hold the same strings (order ignored). */
export const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/** Identifiers like ENG-142 and shortIds like API-3K named in `text`. */
export const idsIn = (text: string, pattern = /\b[A-Z]+-[0-9A-Z]+\b/g) => [
  ...new Set(text.match(pattern) ?? []),
];
