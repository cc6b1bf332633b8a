/**
 * The workspace stand-ins (notion, hubspot, github, filesystem) and tasks: each stand-in served
 * over stdio answers from the world on disk; handlers refuse what the real servers refuse and
 * filter as they do; every task's checker fails on its starting world, passes after its direct best
 * path (handlers called in-process, the person's denials applied), and refuses plausible wrong outcomes.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toolIdentifiers } from '../../engine/address.ts';
import { replyOf, textReply } from '../../eval/arms/arm.ts';
import { DENIED } from '../../eval/arms/direct-arm.ts';
import { type AnyService, ToolFailure } from '../../eval/fixtures/service.ts';
import { type FilesystemState, filesystem } from '../../eval/fixtures/services/filesystem.ts';
import { type GithubState, github } from '../../eval/fixtures/services/github.ts';
import { hubspot } from '../../eval/fixtures/services/hubspot.ts';
import type { HubspotState } from '../../eval/fixtures/services/hubspot-seed.ts';
import { type NotionState, notion } from '../../eval/fixtures/services/notion.ts';
import { logCall, readCalls, readState, writeState } from '../../eval/fixtures/state-files.ts';
import { SERVER } from '../../eval/hub-home.ts';
import type { EvalTask, ScriptedModel, ToolReply, Verdict } from '../../eval/task.ts';
import { WORKSPACE_TASKS } from '../../eval/tasks/workspace-tasks.ts';
import { resetWorld, worldView } from '../../eval/world.ts';

const SERVICES: Record<string, AnyService> = { notion, hubspot, github, filesystem };
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
  dir = mkdtempSync(join(tmpdir(), 'eval-workspace-'));
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

/** The direct arm without a hub or a process: addresses to handlers, the person's denials. */
function directModel(task: EvalTask): ScriptedModel & { turns: number } {
  const model = {
    turns: 0,
    async use(...calls: { name: string; input: Record<string, unknown> }[]) {
      model.turns++;
      return calls.map(({ name, input }) =>
        task.person?.deny?.includes(name) ? textReply(DENIED, true) : callAddress(name, input),
      );
    },
  };
  return model;
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

describe('the workspace stand-ins as stdio servers', () => {
  it('each lists its corpus tools and answers a call from the world on disk', async () => {
    resetWorld(dir, {});
    const probes: [string, string, Record<string, unknown>, string][] = [
      ['notion', 'API-post-search', { query: 'retro' }, 'Sprint 14 retro'],
      [
        'hubspot',
        'hubspot-search-objects',
        { objectType: 'companies', query: 'Kraftwerk' },
        'kraftwerk-labs.de',
      ],
      ['github', 'get_issue', { owner: 'acme', repo: 'web', issue_number: 12 }, 'Footer links'],
      ['filesystem', 'list_directory', { path: '/workspace/notes' }, '[FILE] todo.md'],
    ];
    for (const [namespace, tool, args, expected] of probes) {
      const client = new Client({ name: 'eval-workspace-test', version: '1.0.0' });
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
        expect(tools.length).toBe(NAMES.get(namespace)?.size);
        const reply = replyOf(await client.callTool({ name: tool, arguments: args }));
        expect(reply.isError).toBe(false);
        expect(reply.text).toContain(expected);
        expect(readCalls(dir, namespace)).toEqual([{ tool, args }]);
      } finally {
        await client.close();
      }
    }
  });
});

describe('the workspace handlers', () => {
  it('filesystem: reads, writes inside /workspace only, lists, and refuses a missing file', () => {
    const state = filesystem.seed() as FilesystemState;
    expect(filesystem.call(state, 'read_text_file', { path: '/workspace/notes/todo.md', head: 1 })).toBe(
      '# To do',
    );
    expect(refusal(() => filesystem.call(state, 'read_file', { path: '/etc/passwd' }))).toMatch(
      /Access denied/,
    );
    expect(refusal(() => filesystem.call(state, 'read_file', { path: '/workspace/../etc/x' }))).toMatch(
      /Access denied/,
    );
    expect(refusal(() => filesystem.call(state, 'read_file', { path: '/workspace/nope.md' }))).toMatch(
      /ENOENT/,
    );
    expect(
      refusal(() => filesystem.call(state, 'write_file', { path: '/workspace/new/a.md', content: 'x' })),
    ).toMatch(/ENOENT/);
    filesystem.call(state, 'create_directory', { path: '/workspace/new' });
    expect(filesystem.call(state, 'write_file', { path: '/workspace/new/a.md', content: 'x' })).toBe(
      'Successfully wrote to /workspace/new/a.md',
    );
    expect(filesystem.call(state, 'list_directory', { path: '/workspace' })).toContain('[DIR] new');
    filesystem.call(state, 'edit_file', {
      path: '/workspace/new/a.md',
      edits: [{ oldText: 'x', newText: 'y' }],
    });
    expect(state.files['/workspace/new/a.md']).toBe('y');
  });
  it('github: filters issues by state and label, searches, and refuses an unknown repo or issue', () => {
    const state = github.seed() as GithubState;
    const bugs = github.call(state, 'list_issues', {
      owner: 'acme',
      repo: 'web',
      labels: ['bug'],
      per_page: 100,
    }) as {
      number: number;
    }[];
    expect(bugs.map((issue) => issue.number)).toEqual([41, 39, 33, 21, 18, 12, 7, 3]);
    const found = github.call(state, 'search_issues', { q: 'repo:acme/api is:open no:label' }) as {
      total_count: number;
    };
    expect(found.total_count).toBe(4);
    expect(
      refusal(() => github.call(state, 'get_issue', { owner: 'acme', repo: 'mobile', issue_number: 1 })),
    ).toMatch(/Not Found/);
    expect(
      refusal(() => github.call(state, 'get_issue', { owner: 'acme', repo: 'web', issue_number: 999 })),
    ).toMatch(/Not Found/);
    expect(refusal(() => github.call(state, 'create_issue', { owner: 'acme', repo: 'web' }))).toMatch(
      /"title" is required/,
    );
  });
  it('hubspot: 400 contacts, filterGroups with AND inside and OR across, paging, and a 409 on a known email', () => {
    const state = hubspot.seed() as HubspotState;
    expect(state.contacts.length).toBe(400);
    const page = hubspot.call(state, 'hubspot-search-objects', { objectType: 'contacts', limit: 100 }) as {
      total: number;
      results: { properties: Record<string, string | null> }[];
      paging?: { next: { after: string } };
    };
    expect(page.total).toBe(400);
    expect(page.paging?.next.after).toBe('100');
    expect(Object.keys(page.results[0]?.properties ?? {})).not.toContain('notes_last_contacted');
    const either = hubspot.call(state, 'hubspot-search-objects', {
      objectType: 'companies',
      limit: 100,
      filterGroups: [
        { filters: [{ propertyName: 'country', operator: 'EQ', value: 'Austria' }] },
        { filters: [{ propertyName: 'country', operator: 'EQ', value: 'norway' }] },
      ],
    }) as { total: number };
    expect(either.total).toBe(3);
    expect(
      refusal(() =>
        hubspot.call(state, 'hubspot-batch-create-objects', {
          objectType: 'contacts',
          inputs: [{ properties: { email: 'Lena.Fischer@kraftwerk-labs.de' } }],
        }),
      ),
    ).toMatch(/409.*already exists/);
    expect(refusal(() => hubspot.call(state, 'hubspot-list-objects', { objectType: 'tickets' }))).toMatch(
      /contacts, companies and deals/,
    );
  });
  it('notion: finds pages by title, reads and appends blocks, creates pages under a parent', () => {
    const state = notion.seed() as NotionState;
    const found = notion.call(state, 'API-post-search', { query: 'pipeline' }) as {
      results: { id: string }[];
    };
    const id = found.results[0]?.id ?? '';
    notion.call(state, 'API-patch-block-children', {
      block_id: id,
      children: [
        { type: 'paragraph', paragraph: { rich_text: [{ type: 'text', text: { content: 'hello' } }] } },
      ],
    });
    const blocks = notion.call(state, 'API-get-block-children', { block_id: id.replace(/-/g, '') }) as {
      results: { paragraph?: { rich_text: { plain_text: string }[] } }[];
    };
    expect(blocks.results.at(-1)?.paragraph?.rich_text[0]?.plain_text).toBe('hello');
    const made = notion.call(state, 'API-post-page', {
      parent: JSON.stringify({ page_id: id }),
      properties: { title: { title: [{ text: { content: 'Child' } }] } },
    }) as { parent: { page_id: string } };
    expect(made.parent.page_id).toBe(id);
    expect(refusal(() => notion.call(state, 'API-retrieve-a-page', { page_id: 'missing' }))).toMatch(
      /Could not find page/,
    );
  });
});

describe('workspace tasks', () => {
  it('are at least 16, with unique ids, every trait but J2, and three or more single calls', () => {
    expect(WORKSPACE_TASKS.length).toBeGreaterThanOrEqual(16);
    expect(new Set(WORKSPACE_TASKS.map((task) => task.id)).size).toBe(WORKSPACE_TASKS.length);
    const traits = new Set(WORKSPACE_TASKS.flatMap((task) => task.traits));
    for (const trait of ['loop', 'join', 'filter', 'approval', 'denial', 'single'])
      expect(traits).toContain(trait);
    expect(WORKSPACE_TASKS.filter((task) => !task.multiStep).length).toBeGreaterThanOrEqual(3);
  });
  for (const task of WORKSPACE_TASKS) {
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

describe('workspace checkers refuse plausible wrong outcomes', () => {
  /** The task's world after its direct best path (or not) and then `calls`, made on the handlers. */
  async function worldAfter(
    id: string,
    calls: [string, Record<string, unknown>][],
    direct = false,
  ): Promise<Verdict> {
    const task = WORKSPACE_TASKS.find((candidate) => candidate.id === id) as EvalTask;
    resetWorld(dir, task);
    if (direct) await task.scripts.direct(directModel(task));
    for (const [address, input] of calls) callAddress(address, input);
    return task.check(worldView(dir));
  }

  it('single calls: the wrong issue, a second comment, a duplicate contact', async () => {
    expect(
      (
        await worldAfter('github-close-web-12', [
          ['github.update_issue', { owner: 'acme', repo: 'web', issue_number: 21, state: 'closed' }],
        ])
      ).ok,
    ).toBe(false);
    expect(
      (
        await worldAfter(
          'github-comment-api-107',
          [['github.add_issue_comment', { owner: 'acme', repo: 'api', issue_number: 107, body: 'again' }]],
          true,
        )
      ).why,
    ).toMatch(/one new comment, found 2/);
    expect(
      (
        await worldAfter('fs-read-todo', [
          ['filesystem.read_text_file', { path: '/workspace/notes/todo.md' }],
        ])
      ).ok,
    ).toBe(true);
    expect(
      (
        await worldAfter('fs-save-standup', [
          ['filesystem.write_file', { path: '/workspace/notes/standup.md', content: '10:30 Priya' }],
        ])
      ).ok,
    ).toBe(false);
  });
  it('the filter: contacted since June, or at a company outside Germany', async () => {
    const { crm } = await import('../../eval/tasks/workspace-world.ts').then((world) => world.seedOf());
    const wrong = crm.contacts.filter((contact) => contact.properties.country === 'Germany').slice(0, 13);
    const content = wrong.map((contact) => contact.properties.email).join('\n');
    const verdict = await worldAfter('hubspot-germany-stale', [
      ['filesystem.write_file', { path: '/workspace/reports/germany-followups.md', content }],
    ]);
    expect(verdict.ok).toBe(false);
    expect(verdict.why).toMatch(/extra/);
  });
  it('the loop: a contact outside Northwind renamed too', async () => {
    const verdict = await worldAfter(
      'hubspot-northwind-to-contoso',
      [
        [
          'hubspot.hubspotBatchUpdateObjects',
          { objectType: 'contacts', inputs: [{ id: '51000', properties: { company: 'Contoso' } }] },
        ],
      ],
      true,
    );
    expect(verdict.why).toMatch(/other contacts changed/);
  });
  it('the joins: a closed deal in the report, an extra issue from a done action item', async () => {
    const report = await worldAfter(
      'hubspot-big-deals-report',
      [
        [
          'filesystem.edit_file',
          {
            path: '/workspace/reports/open-deals-over-50k.md',
            edits: [{ oldText: '# Open deals', newText: 'Support add-on Atlas (Hooli)\n# Open deals' }],
          },
        ],
      ],
      true,
    );
    expect(report.why).toMatch(/closed or small/);
    const retro = await worldAfter(
      'notion-retro-to-github',
      [
        [
          'github.create_issue',
          { owner: 'acme', repo: 'web', title: 'Rotate the staging database password' },
        ],
      ],
      true,
    );
    expect(retro.why).toMatch(/expected 3 issues, found 4/);
  });
  it('the denials: an issue created anyway, a to-do file overwritten', async () => {
    expect(
      (
        await worldAfter(
          'denied-github-plan-to-file',
          [['github.create_issue', { owner: 'acme', repo: 'api', title: 'Roll out' }]],
          true,
        )
      ).ok,
    ).toBe(false);
    expect(
      (
        await worldAfter('denied-notion-roadmap-to-todo', [
          [
            'filesystem.write_file',
            { path: '/workspace/notes/todo.md', content: '- [ ] Usage-based billing slips to Q4\n' },
          ],
        ])
      ).why,
    ).toMatch(/lost/);
  });
});
