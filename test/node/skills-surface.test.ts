/**
 * Skills as a model meets them: `search` lists them after the tools, marked `[skill]` and ranked on
 * name and description; `describe("skill:<name>")` answers the SKILL.md and its files within the
 * budget; and over MCP the official client lists and reads them as the Skills extension says
 * (`skills/list`, `skills/get`, each file a `skill://<name>/<path>` resource, checked against its
 * size and digest by the SDK's SkillsClient) from `hub serve --stdio`. The skills are real folders, added through the engine (in process) or
 * the CLI (for the served hub).
 */
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Lookup } from '../../engine/lookup.ts';
import { Skills } from '../../engine/skills/skills.ts';
import { countTokens } from '../../engine/typegen/index.ts';
import { type LocalStore, openLocalStore } from '../../local/open-store.ts';
import { readSkillFolder } from '../../local/skills/skill-folder.ts';
import { localWording } from '../../local/wording.ts';
import { cli, hubHome } from './cli-process.ts';
import { type SkillFolders, skillFolders, skillMd } from './skill-folders.ts';
import { addSources, stdioClient, textOf } from './surface-fixture.ts';

let home: string;
let removeHome: () => void;
let folders: SkillFolders;
beforeEach(() => {
  ({ home, remove: removeHome } = hubHome());
  folders = skillFolders();
});
afterEach(() => {
  removeHome();
  folders.remove();
});

describe('skills in search and describe', () => {
  let local: LocalStore;
  let skills: Skills;
  let lookup: Lookup;
  beforeEach(async () => {
    local = openLocalStore(join(home, 'hub.db'), 0);
    skills = new Skills(local.store, { now: () => 1 });
    lookup = new Lookup(local.store, localWording);
    const add = async (name: string, description: string, body?: string) =>
      skills.apply(
        await skills.plan(
          await readSkillFolder(
            folders.write(name, { 'SKILL.md': skillMd(name, description, body), 'notes.txt': 'n\n' }),
          ),
        ),
      );
    await add('pdf-forms', 'Fill in PDF forms from a JSON description of the fields.');
    await add('release-notes', 'Write release notes from merged pull requests.');
    await add(
      'long-guide',
      'A very long guide.',
      `${'Follow this step carefully. '.repeat(20)}\n`.repeat(200),
    );
  });
  afterEach(() => local.close());

  it('ranks skills on their name and description, marked [skill], when the hub has no tools', () => {
    const found = lookup.search({ query: 'fill a pdf form' });
    expect(found).toBe(
      'skills\n  skill:pdf-forms   [skill]\n    Fill in PDF forms from a JSON description of the fields.',
    );
    expect(lookup.search({ query: 'release notes' })).toContain('skill:release-notes   [skill]');
    expect(lookup.search({ query: 'kubernetes' })).toBe('No skills match "kubernetes". Try other words.');
    expect(lookup.search({ query: '' })).toContain('skills  3 skills');
  });

  it('says what sources without a tool list lack before the skills it matches', () => {
    local.store.addSource({
      kind: 'mcp-http',
      namespace: 'github',
      url: 'https://github.example/mcp',
      allowedHosts: ['github.example'],
      addedAt: 0,
      updatedAt: 0,
    });
    const found = lookup.search({ query: 'fill a pdf form' });
    expect(found).toMatch(/^No tools yet: this hub's sources \(github\) have no tool list yet\./);
    expect(found).toContain('skill:pdf-forms   [skill]');
    expect(lookup.search({ query: 'create an issue' })).toMatch(/^No tools yet: .*\(github\)/);
    // Within the source's namespace: what it lacks, not an unknown namespace.
    expect(lookup.search({ query: 'create an issue', namespace: 'github' })).toMatch(/^No tools yet: /);
  });

  it('ranks skills with the tools of a hub that has some, by the same score', () => {
    local.store.addSource({
      kind: 'mcp-http',
      namespace: 'docs',
      url: 'https://docs.example/mcp',
      allowedHosts: ['docs.example'],
      addedAt: 0,
      updatedAt: 0,
    });
    local.store.putManifest({
      namespace: 'docs',
      fetchedAt: 1,
      tools: [
        {
          address: 'docs.fillForm',
          name: 'fillForm',
          description: 'Fill a PDF form.',
          inputSchema: { type: 'object', properties: { fields: { type: 'object' } } },
          contract: 'a'.repeat(64),
        },
      ],
    });
    // A source named with a word of the query, whose tools share no other word with it.
    local.store.addSource({
      kind: 'mcp-http',
      namespace: 'notes',
      url: 'https://notes.example/mcp',
      allowedHosts: ['notes.example'],
      addedAt: 0,
      updatedAt: 0,
    });
    local.store.putManifest({
      namespace: 'notes',
      fetchedAt: 1,
      tools: ['create_entities', 'add_observations', 'delete_relations', 'read_graph'].map((name) => ({
        address: `notes.${name}`,
        name,
        description: `${name.replace('_', ' ')} in the knowledge graph.`,
        inputSchema: { type: 'object' },
        contract: 'b'.repeat(64),
      })),
    });
    const found = lookup.search({ query: 'pdf form' });
    expect(found).toContain('docs.fillForm');
    expect(found).toContain('skill:pdf-forms   [skill]');
    // The skill that matches comes first, and tools that share only the source's name are no match.
    const notes = lookup.search({ query: 'write release notes for customers' });
    expect(notes.startsWith('skills\n  skill:release-notes   [skill]')).toBe(true);
    expect(notes).not.toContain('notes.create_entities');
    // Within a namespace only its tools are searched.
    expect(lookup.search({ query: 'pdf form', namespace: 'docs' })).not.toContain('[skill]');
  });

  it('describes a skill as its SKILL.md and its files, and cuts a long one to the budget', () => {
    const described = lookup.describe(['skill:pdf-forms']);
    expect(described).toContain('name: pdf-forms');
    expect(described).toContain('# Steps');
    expect(described).toMatch(/\/\/ Files:\n\/\/ {3}SKILL\.md \(\d+ bytes\)\n\/\/ {3}notes\.txt \(2 bytes\)/);

    const long = lookup.describe(['skill:long-guide']);
    expect(countTokens(long)).toBeLessThanOrEqual(2500);
    expect(long).toMatch(
      /cut for the budget: \d+ more lines of SKILL\.md; its whole text is the MCP resource skill:\/\/long-guide/,
    );
    expect(countTokens(lookup.describe(['skill:long-guide'], 300))).toBeLessThanOrEqual(300);
  });

  it('names the closest skill for an unknown one', () => {
    expect(() => lookup.describe(['skill:pdf-form'])).toThrow(
      /no skill "skill:pdf-form" \(did you mean skill:pdf-forms\?\)/,
    );
  });
});

describe('skills over MCP', () => {
  let client: Client | undefined;
  afterEach(async () => client?.close());

  it('serves skills as the Skills extension says, and finds and describes them with the tools', async () => {
    addSources(home);
    const folder = folders.write('pdf-forms', {
      'SKILL.md': skillMd('pdf-forms', 'Fill in PDF forms from a JSON description of the fields.'),
      'scripts/fill.py': 'print(1)\n',
    });
    const added = cli(home, ['hub', 'skills', 'add', folder]);
    expect(added.status, added.stderr).toBe(0);

    const session = await stdioClient(home, 'auto');
    client = session.client;
    expect(client.getServerCapabilities()?.resources).toBeDefined();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['search', 'describe', 'execute']);

    const { resources } = await client.listResources();
    expect(resources).toEqual([
      expect.objectContaining({
        uri: 'skill://pdf-forms/SKILL.md',
        name: 'pdf-forms',
        description: 'Fill in PDF forms from a JSON description of the fields.',
        mimeType: 'text/markdown',
      }),
    ]);
    // The extension, through the SDK's own host side: every entry and file checked (size, digest,
    // the front matter against SKILL.md's).
    const skillsClient = new SkillsClient(client);
    expect(skillsClient.supported).toBe(true);
    const { skills: entries } = await skillsClient.list();
    expect(entries).toEqual([
      {
        uri: 'skill://pdf-forms/SKILL.md',
        frontmatter: {
          name: 'pdf-forms',
          description: 'Fill in PDF forms from a JSON description of the fields.',
        },
        resources: [
          {
            uri: 'skill://pdf-forms/SKILL.md',
            digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
            size: expect.any(Number),
          },
          { uri: 'skill://pdf-forms/scripts/fill.py', digest: expect.stringMatching(/^sha256:/), size: 9 },
        ],
      },
    ]);
    const entry = entries[0];
    if (!entry) throw new Error('no entry');
    expect((await skillsClient.get(entry.uri)).skill).toEqual(entry);
    const text = await skillsClient.read(entry);
    expect(text).toMatchObject({
      verified: true,
      text: skillMd('pdf-forms', 'Fill in PDF forms from a JSON description of the fields.'),
    });
    expect(await skillsClient.read(entry, 'scripts/fill.py')).toMatchObject({
      verified: true,
      text: 'print(1)\n',
    });
    await expect(client.readResource({ uri: 'skill://nope/SKILL.md' })).rejects.toThrow(/skill:\/\/nope/);
    await expect(client.readResource({ uri: 'skill://pdf-forms/scripts/missing.py' })).rejects.toThrow();

    const found = textOf(await client.callTool({ name: 'search', arguments: { query: 'fill pdf forms' } }));
    expect(found).toContain('skill:pdf-forms   [skill]');
    const described = textOf(
      await client.callTool({ name: 'describe', arguments: { targets: ['skill:pdf-forms'] } }),
    );
    expect(described).toContain('scripts/fill.py (9 bytes)');
  });
});
