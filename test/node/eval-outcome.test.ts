/**
 * The outcome tasks (issue #35) and the kit their code-arm scripts find tools with
 * (eval/find-by-asking.ts): the first search is the person's words; a retry is sent only with
 * words the prompt or an earlier answer held (and a namespace an answer showed), else it throws;
 * a tool still unshown fails the script. Every outcome task's checker fails on its starting world,
 * passes after its direct best path (handlers called in-process), and refuses plausible wrong ends.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toolIdentifiers } from '../../engine/address.ts';
import { textReply } from '../../eval/arms/arm.ts';
import { findByAsking, queryWords, seek, seekIn, wordsOf } from '../../eval/find-by-asking.ts';
import { type AnyService, ToolFailure } from '../../eval/fixtures/service.ts';
import { SERVICES } from '../../eval/fixtures/services/index.ts';
import { logCall, readState, writeState } from '../../eval/fixtures/state-files.ts';
import type { EvalTask, ScriptedModel, ToolReply, ToolUse, Verdict } from '../../eval/task.ts';
import { OUTCOME_TASKS } from '../../eval/tasks/outcome-tasks.ts';
import { resetWorld, worldView } from '../../eval/world.ts';

const CORPUS = join(import.meta.dirname, '..', 'fixtures', 'corpus', 'tools');

/** Each namespace's tool names by address identifier (`hubspotSearchObjects` → `hubspot-search-objects`). */
const NAMES = new Map(
  Object.values(SERVICES).map((service) => {
    const { tools } = JSON.parse(readFileSync(join(CORPUS, `${service.corpus}.json`), 'utf8')) as {
      tools: { name: string }[];
    };
    const ids = toolIdentifiers(tools.map((tool) => tool.name));
    return [service.namespace, new Map([...ids].map(([name, id]) => [id, name]))];
  }),
);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eval-outcome-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A call by address as the stand-in server makes it: logged, state read, handler, state written. */
function callAddress(address: string, args: Record<string, unknown>): ToolReply {
  const [namespace = '', id = ''] = address.split('.');
  const service = SERVICES[namespace] as AnyService;
  const tool = NAMES.get(namespace)?.get(id) ?? id;
  logCall(dir, namespace, { tool, args });
  const state = readState(dir, namespace);
  try {
    const answer = service.call(state, tool, args);
    writeState(dir, namespace, state);
    return textReply(typeof answer === 'string' ? answer : JSON.stringify(answer), false);
  } catch (error) {
    if (error instanceof ToolFailure) return textReply(error.message, true);
    throw error;
  }
}

/** The direct arm without a hub or a process (no outcome task denies anything). */
function directModel(): ScriptedModel & { turns: number } {
  const model = {
    turns: 0,
    async use(...calls: ToolUse[]) {
      model.turns++;
      return calls.map(({ name, input }) => callAddress(name, input));
    },
  };
  return model;
}

/** The key of a search in `searchModel`'s answers: its query, after `namespace:` when it has one. */
const keyOf = (input: Record<string, unknown>) =>
  input.namespace === undefined ? String(input.query) : `${String(input.namespace)}:${String(input.query)}`;

/** A code-arm stand-in that answers each search from `answers` (by keyOf) and records every turn. */
function searchModel(answers: Record<string, string>): ScriptedModel & { turns: ToolUse[][] } {
  const model = {
    turns: [] as ToolUse[][],
    async use(...calls: ToolUse[]) {
      model.turns.push(calls);
      return calls.map((call) =>
        textReply(call.name === 'search' ? (answers[keyOf(call.input)] ?? 'No tools match.') : 'ok', false),
      );
    },
  };
  return model;
}

const POST = 'slack.slack_post_message';
const SLACK_TOOLS = `slack\n  ${POST}(input: { channel_id: string; text: string }): Promise<unknown>\n    Post a new message to a Slack channel`;
const PROMPT = 'let the team know the deploy is done';

describe('findByAsking', () => {
  it('reads words split on non-letters and camelCase, and queries split on non-letters', () => {
    expect([...wordsOf('hubspot.hubspotSearchObjects(input: { objectType })')]).toEqual(
      expect.arrayContaining(['hubspot', 'hubspotsearchobjects', 'search', 'objects', 'object', 'type']),
    );
    expect([...wordsOf('notion.APIPostSearch slack_post_message')]).toEqual(
      expect.arrayContaining(['api', 'post', 'search', 'slack', 'message']),
    );
    expect(queryWords("post to #eng, it's done")).toEqual(['post', 'to', 'eng', 'it', 's', 'done']);
  });

  it('searches with the person’s words first and describes at once when they showed every tool', async () => {
    const model = searchModel({ [PROMPT]: SLACK_TOOLS });
    const found = await findByAsking(model, PROMPT, [POST], seekIn('slack', [POST]));
    expect(found.searches).toBe(1);
    expect(model.turns).toEqual([
      [{ name: 'search', input: { query: PROMPT } }],
      [{ name: 'describe', input: { targets: [POST] } }],
    ]);
  });

  it('refuses a first search that is not the person’s words', async () => {
    await expect(findByAsking(searchModel({}), PROMPT, [POST], [], 'post a slack message')).rejects.toThrow(
      /not the person's words/,
    );
  });

  it('throws on a retry with a word the model never read, and never sends it', async () => {
    const model = searchModel({ [PROMPT]: 'sentry\n  sentry.find_teams(input: {}): Promise<unknown>' });
    await expect(
      findByAsking(model, PROMPT, [POST], [seek([POST], { query: 'post slack message' })]),
    ).rejects.toThrow(/"post", "slack", "message", in neither the prompt nor an answer/);
    expect(model.turns).toHaveLength(1);
  });

  it('throws on a namespace no answer showed', async () => {
    const model = searchModel({ [PROMPT]: 'No tools match.' });
    await expect(
      findByAsking(model, PROMPT, [POST], [seek([POST], { query: '', namespace: 'slack' })]),
    ).rejects.toThrow(/namespace "slack" was in no answer/);
  });

  it('sends the first choice whose words were read: the namespaces, then the namespace they named', async () => {
    const model = searchModel({
      [PROMPT]: 'filesystem\n  filesystem.move_file(input: {}): Promise<unknown>',
      '': 'filesystem  14 tools\nslack  8 tools',
      'slack:': SLACK_TOOLS,
    });
    const retries = seekIn('slack', [POST], [{ query: 'post message slack channel' }]);
    const found = await findByAsking(model, PROMPT, [POST], retries);
    expect(found.searches).toBe(3);
    expect(model.turns.slice(1, 3)).toEqual([
      [{ name: 'search', input: { query: '' } }],
      [{ name: 'search', input: { query: '', namespace: 'slack' } }],
    ]);
  });

  it('uses the words of an earlier answer, and fails when the tool is still not shown', async () => {
    const model = searchModel({
      [PROMPT]: 'slack  team chat: channels, message (8 tools)',
      'message slack channels': 'No tools in slack match.',
    });
    await expect(
      findByAsking(model, PROMPT, [POST], [seek([POST], { query: 'message slack channels' })]),
    ).rejects.toThrow(/search did not show slack.slack_post_message after 2 searches/);
    expect(model.turns[1]).toEqual([{ name: 'search', input: { query: 'message slack channels' } }]);
  });
});

describe('outcome tasks', () => {
  it('are at least 10, asked as people ask, single and multi-step, reads and writes', () => {
    expect(OUTCOME_TASKS.length).toBeGreaterThanOrEqual(10);
    expect(OUTCOME_TASKS.every((task) => task.traits.includes('outcome'))).toBe(true);
    expect(OUTCOME_TASKS.filter((task) => task.multiStep).length).toBeGreaterThanOrEqual(5);
    expect(OUTCOME_TASKS.filter((task) => !task.multiStep).length).toBeGreaterThanOrEqual(3);
    expect(OUTCOME_TASKS.filter((task) => task.traits.includes('approval')).length).toBeGreaterThanOrEqual(5);
    expect(OUTCOME_TASKS.filter((task) => !task.traits.includes('approval')).length).toBeGreaterThanOrEqual(
      3,
    );
  });
  for (const task of OUTCOME_TASKS) {
    it(`${task.id}: the checker fails on the starting world and passes after the direct best path`, async () => {
      resetWorld(dir, task);
      expect(task.check(worldView(dir)).ok).toBe(false);
      const model = directModel();
      await task.scripts.direct(model);
      expect(task.check(worldView(dir))).toMatchObject({ ok: true });
      if (!task.multiStep) expect(model.turns).toBe(1);
    });
  }
});

describe('outcome checkers refuse plausible wrong outcomes', () => {
  /** The task's world after its direct best path (or not) and then `calls`, made on the handlers. */
  async function worldAfter(
    id: string,
    calls: [string, Record<string, unknown>][],
    direct = false,
  ): Promise<Verdict> {
    const task = OUTCOME_TASKS.find((candidate) => candidate.id === id) as EvalTask;
    resetWorld(dir, task);
    if (direct) await task.scripts.direct(directModel());
    for (const [address, input] of calls) callAddress(address, input);
    return task.check(worldView(dir));
  }

  it('a post to the wrong channel, or a second one', async () => {
    expect(
      (
        await worldAfter('ask-deploy-done', [
          [POST, { channel_id: 'eng', text: 'The deploy to prod is done.' }],
        ])
      ).why,
    ).toMatch(/#eng, not #releases/);
    expect(
      (await worldAfter('ask-failover-moved', [[POST, { channel_id: 'eng', text: 'failover Monday' }]], true))
        .why,
    ).toMatch(/exactly one post, found 2/);
  });
  it('a question that posts, or reads another thread', async () => {
    expect(
      (await worldAfter('ask-outage-replies', [[POST, { channel_id: 'incidents', text: 'any news?' }]], true))
        .why,
    ).toMatch(/changed Slack/);
    expect(
      (
        await worldAfter('ask-outage-replies', [
          ['slack.slack_get_channel_history', { channel_id: 'incidents' }],
        ])
      ).ok,
    ).toBe(false);
  });
  it('a contact under another email, the wrong line ticked, the wrong issue closed or assigned', async () => {
    expect(
      (
        await worldAfter('ask-ada-in-crm', [
          [
            'hubspot.hubspotBatchCreateObjects',
            {
              objectType: 'contacts',
              inputs: [{ properties: { email: 'ada@contoso.com', firstname: 'Ada' } }],
            },
          ],
        ])
      ).ok,
    ).toBe(false);
    expect(
      (
        await worldAfter('ask-todo-certs', [
          [
            'filesystem.edit_file',
            {
              path: '/workspace/notes/todo.md',
              edits: [{ oldText: '- [ ] Book the offsite', newText: '- [x] Book the offsite' }],
            },
          ],
        ])
      ).ok,
    ).toBe(false);
    expect(
      (
        await worldAfter('ask-footer-fixed', [
          ['github.update_issue', { owner: 'acme', repo: 'web', issue_number: 3, state: 'closed' }],
        ])
      ).ok,
    ).toBe(false);
    expect(
      (
        await worldAfter('ask-take-checkout-crash', [
          [
            'sentry.update_issue',
            { organizationSlug: 'acme', issueId: 'WEB-5F', assignedTo: 'user:3000401' },
          ],
        ])
      ).ok,
    ).toBe(false);
  });
  it('an agenda line without the amount, a status post without the status', async () => {
    const { pageNamed } = await import('../../eval/tasks/workspace-world.ts');
    const bullet = (content: string) => ({
      type: 'bulleted_list_item',
      bulleted_list_item: { rich_text: [{ type: 'text', text: { content } }] },
    });
    expect(
      (
        await worldAfter('ask-pipeline-agenda', [
          [
            'notion.APIPatchBlockChildren',
            { block_id: pageNamed('Pipeline review').id, children: [bullet('Platform renewal Atlas')] },
          ],
        ])
      ).why,
    ).toMatch(/lacks the amount/);
    expect(
      (
        await worldAfter('ask-apple-pay-status', [
          [POST, { channel_id: 'support', text: 'Looking into it.' }],
        ])
      ).why,
    ).toMatch(/not that the fix/);
  });
});
