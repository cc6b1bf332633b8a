/**
 * The tracker stand-ins (linear, slack, sentry) and tasks, without a hub: each service's handlers
 * refuse what the real server refuses and answer what it answers; and every task's checker fails
 * on its starting world and passes on the world its direct-arm best path leaves, played here
 * against the handlers on real state files (a denied address answers the harness's refusal).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replyOf, textReply } from '../../eval/arms/arm.ts';
import { DENIED } from '../../eval/arms/direct-arm.ts';
import { type AnyService, type Json, ToolFailure } from '../../eval/fixtures/service.ts';
import { linear } from '../../eval/fixtures/services/linear.ts';
import type { LinearState } from '../../eval/fixtures/services/linear-seed.ts';
import { sentry } from '../../eval/fixtures/services/sentry.ts';
import type { SentryState } from '../../eval/fixtures/services/sentry-seed.ts';
import { type SlackState, slack } from '../../eval/fixtures/services/slack.ts';
import { logCall, readCalls, readState, writeState } from '../../eval/fixtures/state-files.ts';
import { SERVER } from '../../eval/hub-home.ts';
import type { EvalTask, ScriptedModel, ToolReply } from '../../eval/task.ts';
import { TRACKER_TASKS } from '../../eval/tasks/tracker-tasks.ts';
import { resetWorld, worldView } from '../../eval/world.ts';

const SERVICES: Record<string, AnyService> = { linear, slack, sentry };
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eval-tracker-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A call as the stand-in server makes it: logged, state read, handler, state written. */
function callTool(namespace: string, tool: string, args: Record<string, unknown>): ToolReply {
  const service = SERVICES[namespace] as AnyService;
  logCall(dir, namespace, { tool, args });
  const state = readState(dir, namespace);
  try {
    const answer = service.call(state, tool, args);
    writeState(dir, namespace, state);
    return textReply(JSON.stringify(answer), false);
  } catch (error) {
    if (error instanceof ToolFailure) return textReply(error.message, true);
    throw error;
  }
}

/** The direct arm without a hub or a process: addresses to handlers, the person's denials. */
function directModel(task: EvalTask): ScriptedModel & { turns: number } {
  const model = {
    turns: 0,
    async use(...calls: { name: string; input: Record<string, unknown> }[]) {
      model.turns++;
      return calls.map(({ name, input }) => {
        const [namespace = '', tool = ''] = name.split('.');
        if (task.person?.deny?.includes(name)) return textReply(DENIED, true);
        return callTool(namespace, tool, input);
      });
    },
  };
  return model;
}

/** A fresh world's state for `namespace`, to call handlers on directly. */
function fresh<S extends Json>(namespace: string): S {
  return (SERVICES[namespace] as AnyService).seed() as S;
}
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolFailure);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('the tracker stand-ins as stdio servers', () => {
  it('each lists its corpus tools and answers a call from the world on disk', async () => {
    resetWorld(dir, {});
    const probes: [string, string, Record<string, unknown>, string][] = [
      ['linear', 'linear_search_issues', { query: 'ENG-142' }, 'Webhook deliveries'],
      ['slack', 'slack_post_message', { channel_id: '#releases', text: 'deploy done' }, 'C01RELEAS04'],
      [
        'sentry',
        'update_issue',
        { organizationSlug: 'acme', issueId: 'API-3R', status: 'resolved' },
        'resolved',
      ],
    ];
    for (const [namespace, tool, args, expected] of probes) {
      const client = new Client({ name: 'eval-tracker-test', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [SERVER, namespace],
          env: { ...(process.env as Record<string, string>), EVAL_STATE_DIR: dir },
          stderr: 'pipe',
        }),
      );
      try {
        const { tools } = await client.listTools();
        expect(tools.length).toBe({ linear: 5, slack: 8, sentry: 22 }[namespace]);
        const reply = replyOf(await client.callTool({ name: tool, arguments: args }));
        expect(reply.isError).toBe(false);
        expect(reply.text).toContain(expected);
        expect(readCalls(dir, namespace)).toEqual([{ tool, args }]);
      } finally {
        await client.close();
      }
    }
    expect(JSON.stringify(readState(dir, 'slack'))).toContain('deploy done');
  });
});

describe('linear stand-in', () => {
  it('seeds 300 issues deterministically and finds one by identifier', () => {
    const state = fresh<LinearState>('linear');
    expect(state.issues).toHaveLength(300);
    expect(JSON.stringify(fresh('linear'))).toBe(JSON.stringify(state));
    const found = linear.call(state, 'linear_search_issues', { query: 'ENG-142' }) as LinearState;
    expect(JSON.stringify(found)).toContain('Webhook deliveries retry forever');
  });
  it('filters by assignee, priority and label, newest first, capped by limit', () => {
    const state = fresh<LinearState>('linear');
    const { issues } = linear.call(state, 'linear_search_issues', {
      assigneeId: state.viewerId,
      priority: 1,
      limit: 3,
    }) as { issues: LinearState['issues'] };
    expect(issues.length).toBeLessThanOrEqual(3);
    for (const issue of issues) expect([issue.assignee?.id, issue.priority]).toEqual([state.viewerId, 1]);
    const dates = issues.map((issue) => issue.updatedAt);
    expect([...dates].sort().reverse()).toEqual(dates);
  });
  it('refuses a missing title, an unknown team or issue, and a bad status', () => {
    const state = fresh<LinearState>('linear');
    expect(refusal(() => linear.call(state, 'linear_create_issue', { teamId: 'ENG' }))).toMatch(/title/);
    expect(refusal(() => linear.call(state, 'linear_create_issue', { title: 'x', teamId: 'NOPE' }))).toMatch(
      /Team/,
    );
    expect(
      refusal(() => linear.call(state, 'linear_add_comment', { issueId: 'ENG-999', body: 'x' })),
    ).toMatch(/ENG-999/);
    expect(
      refusal(() => linear.call(state, 'linear_update_issue', { id: 'ENG-1', status: 'Shipped' })),
    ).toMatch(/workflow states/);
  });
  it('creates the next number of the team and comments by identifier', () => {
    const state = fresh<LinearState>('linear');
    const made = linear.call(state, 'linear_create_issue', { title: 'New', teamId: 'OPS' }) as {
      issue: { identifier: string };
    };
    expect(made.issue.identifier).toBe('OPS-51');
    linear.call(state, 'linear_add_comment', { issueId: 'OPS-51', body: 'hello' });
    expect(state.comments.at(-1)).toMatchObject({ issueIdentifier: 'OPS-51', body: 'hello' });
  });
});

describe('slack stand-in', () => {
  it('posts by channel name or id, and refuses an unknown channel', () => {
    const state = fresh<SlackState>('slack');
    const posted = slack.call(state, 'slack_post_message', {
      channel_id: '#releases',
      text: 'deploy done',
    }) as {
      channel: string;
      ts: string;
    };
    expect(posted.channel).toBe('C01RELEAS04');
    expect(state.messages.C01RELEAS04?.at(-1)?.text).toBe('deploy done');
    expect(refusal(() => slack.call(state, 'slack_post_message', { channel_id: 'C999', text: 'x' }))).toBe(
      'channel_not_found',
    );
    expect(refusal(() => slack.call(state, 'slack_post_message', { channel_id: 'eng' }))).toMatch(/text/);
  });
  it('gives history newest first without thread replies, and the thread on request', () => {
    const state = fresh<SlackState>('slack');
    const { messages } = slack.call(state, 'slack_get_channel_history', { channel_id: 'incidents' }) as {
      messages: { ts: string; reply_count?: number }[];
    };
    expect(messages).toHaveLength(4);
    expect(messages.map((message) => message.ts)).toEqual(
      messages
        .map((message) => message.ts)
        .sort()
        .reverse(),
    );
    expect(messages[0]?.reply_count).toBe(2);
    const thread = slack.call(state, 'slack_get_thread_replies', {
      channel_id: 'C01INCID005',
      thread_ts: messages[0]?.ts,
    }) as { messages: unknown[] };
    expect(thread.messages).toHaveLength(3);
  });
  it('refuses a second identical reaction', () => {
    const state = fresh<SlackState>('slack');
    const ts = state.messages.C01BUGS0006?.[0]?.ts;
    slack.call(state, 'slack_add_reaction', { channel_id: 'bugs', timestamp: ts, reaction: 'eyes' });
    expect(
      refusal(() =>
        slack.call(state, 'slack_add_reaction', { channel_id: 'bugs', timestamp: ts, reaction: 'eyes' }),
      ),
    ).toBe('already_reacted');
  });
});

describe('sentry stand-in', () => {
  it('searches with the issue syntax, sorted and limited', () => {
    const state = fresh<SentryState>('sentry');
    const found = sentry.call(state, 'search_issues', {
      organizationSlug: 'acme',
      query: 'is:unresolved level:error times_seen:>1000',
      sort: 'freq',
      limit: 100,
    }) as SentryState['issues'];
    expect(found.map((issue) => issue.shortId)).toEqual([
      'WORKER-1F',
      'WEB-5D',
      'API-3M',
      'API-3P',
      'MOBILE-A2',
      'WEB-5F',
      'API-3K',
    ]);
  });
  it('refuses an unknown organization, an unknown issue, and an update with nothing to change', () => {
    const state = fresh<SentryState>('sentry');
    expect(refusal(() => sentry.call(state, 'search_issues', { organizationSlug: 'globex' }))).toMatch(
      /find_organizations/,
    );
    expect(refusal(() => sentry.call(state, 'search_issues', {}))).toMatch(/organizationSlug/);
    expect(
      refusal(() =>
        sentry.call(state, 'update_issue', {
          organizationSlug: 'acme',
          issueId: 'WEB-ZZ',
          status: 'resolved',
        }),
      ),
    ).toMatch(/404/);
    expect(
      refusal(() => sentry.call(state, 'update_issue', { organizationSlug: 'acme', issueId: 'WEB-5D' })),
    ).toMatch(/status or assignedTo/);
  });
  it('assigns to the signed-in user and resolves', () => {
    const state = fresh<SentryState>('sentry');
    const me = sentry.call(state, 'whoami', {}) as { id: string };
    sentry.call(state, 'update_issue', {
      organizationSlug: 'acme',
      issueId: 'API-3K',
      assignedTo: `user:${me.id}`,
    });
    const issue = sentry.call(state, 'get_sentry_resource', {
      organizationSlug: 'acme',
      resourceType: 'issue',
      resourceId: 'API-3K',
    }) as SentryState['issues'][number];
    expect(issue.assignedTo?.name).toBe('Dana Whitfield');
  });
});

describe('tracker tasks', () => {
  it('are at least 16, with unique ids, J2 and every trait', () => {
    expect(TRACKER_TASKS.length).toBeGreaterThanOrEqual(16);
    expect(new Set(TRACKER_TASKS.map((task) => task.id)).size).toBe(TRACKER_TASKS.length);
    const traits = new Set(TRACKER_TASKS.flatMap((task) => task.traits));
    for (const trait of ['J2', 'loop', 'join', 'filter', 'approval', 'denial', 'single'])
      expect(traits).toContain(trait);
    expect(TRACKER_TASKS.filter((task) => !task.multiStep).length).toBeGreaterThanOrEqual(3);
  });
  for (const task of TRACKER_TASKS) {
    it(`${task.id}: the checker fails on the starting world and passes after the direct best path`, async () => {
      resetWorld(dir, task);
      expect(task.check(worldView(dir)).ok).toBe(false);
      const model = directModel(task);
      await task.scripts.direct(model);
      const verdict = task.check(worldView(dir));
      expect(verdict.why).toBeTypeOf('string');
      expect(verdict).toMatchObject({ ok: true });
      if (!task.multiStep) expect(model.turns).toBe(1);
    });
  }
});

describe('tracker checkers refuse plausible wrong outcomes', () => {
  const byId = (id: string) => TRACKER_TASKS.find((task) => task.id === id) as EvalTask;
  /** The task's world after `calls` (address, input), made straight on the handlers. */
  function worldAfter(id: string, calls: [string, Record<string, unknown>][], direct = false) {
    const task = byId(id);
    resetWorld(dir, task);
    const run = async () => {
      if (direct) await task.scripts.direct(directModel(task));
      for (const [address, input] of calls) {
        const [namespace = '', tool = ''] = address.split('.');
        callTool(namespace, tool, input);
      }
      return task.check(worldView(dir));
    };
    return run();
  }
  const post = (channel: string, text: string): [string, Record<string, unknown>] => [
    'slack.slack_post_message',
    { channel_id: channel, text },
  ];

  it('J2: two posts, or the wrong three bugs', async () => {
    expect(
      (await worldAfter('j2-top-bugs-to-eng', [post('eng', 'again: ENG-172 ENG-37 WEB-25')], true)).why,
    ).toMatch(/exactly one post, found 2/);
    expect((await worldAfter('j2-top-bugs-to-eng', [post('eng', 'ENG-172, ENG-37, ENG-74')])).why).toMatch(
      /top three are ENG-37, WEB-25 and ENG-172/,
    );
    expect((await worldAfter('j2-top-bugs-to-eng', [post('general', 'ENG-172, ENG-37, WEB-25')])).ok).toBe(
      false,
    );
  });
  it('single calls: the wrong channel, the wrong issue', async () => {
    expect((await worldAfter('slack-post-deploy-done', [post('general', 'deploy done')])).ok).toBe(false);
    expect(
      (await worldAfter('linear-status-eng-142', [['linear.linear_search_issues', { query: 'ENG-124' }]]))
        .why,
    ).toMatch(/never looked up/);
    expect(
      (
        await worldAfter('linear-mark-eng-150-done', [
          ['linear.linear_update_issue', { id: 'ENG-151', status: 'Done' }],
        ])
      ).ok,
    ).toBe(false);
  });
  it('the join: an issue filed for a Sentry error Linear already tracks', async () => {
    const verdict = await worldAfter(
      'sentry-errors-to-linear',
      [['linear.linear_create_issue', { title: '[Sentry API-3K] TimeoutError', teamId: 'ENG' }]],
      true,
    );
    expect(verdict.why).toMatch(/API-3K/);
  });
  it('the loop: a comment on a closed issue too', async () => {
    const verdict = await worldAfter(
      'linear-comment-postgres',
      [['linear.linear_add_comment', { issueId: 'OPS-9', body: 'blocked on the Postgres 16 upgrade' }]],
      true,
    );
    expect(verdict.why).toMatch(/OPS-9/);
  });
  it('the filter: a warning counted among the errors', async () => {
    expect((await worldAfter('sentry-top-web-errors', [post('eng', 'WEB-5D WEB-5N WEB-5F')])).ok).toBe(false);
  });
  it('the thread: a top-level post instead of a reply', async () => {
    expect(
      (await worldAfter('incident-thread-update', [post('incidents', 'WEB-5D: 4810 events, 912 users')])).why,
    ).toMatch(/not a reply/);
  });
  it('the denials: a post that went through anyway, a fallback missing', async () => {
    expect(
      (await worldAfter('denied-post-files-issue', [post('eng', 'staging is read-only until 3pm')])).ok,
    ).toBe(false);
    expect(
      (
        await worldAfter('denied-close-comments', [
          ['linear.linear_update_issue', { id: 'ENG-160', status: 'Done' }],
        ])
      ).ok,
    ).toBe(false);
  });
});
