/**
 * Profiles cannot widen anything, and what they hide is gone, end to end: a code-mode profile
 * made through the CLI that shows only two of memory's tools and one of two skills, served by
 * `hub serve --stdio --profile reader` to the official v2 client. A hidden tool (in a hidden
 * namespace, or hidden in a visible one) is missing from search and describe and fails in
 * execute exactly as a tool that does not exist (the same answer, the names aside), and nothing
 * reaches its server; a hidden skill is missing from search, describe and the resources. The
 * `default` profile beside it still sees everything.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { hubHome, runCli } from './cli-process.ts';
import { type SkillFolders, skillFolders, skillMd } from './skill-folders.ts';
import { addSources, stdioClient, textOf } from './surface-fixture.ts';

let home: string;
let remove: () => void;
let folders: SkillFolders;
const clients: Client[] = [];
beforeEach(() => {
  ({ home, remove } = hubHome());
  folders = skillFolders();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  folders.remove();
  remove();
});

async function cliOk(args: string[]) {
  const result = await runCli(home, args);
  expect(result.status, result.stderr).toBe(0);
  return result;
}

async function serve(profile: string): Promise<Client> {
  const { client } = await stdioClient(home, 'auto', {}, profile);
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args });
const text = async (client: Client, name: string, args: Record<string, unknown>) =>
  textOf(await call(client, name, args));
const run = async (client: Client, code: string) =>
  (await call(client, 'execute', { code })).structuredContent as ExecuteEnvelope;

/** The parts of a run's answer that say how it failed, with the run's id taken out. */
const failure = (envelope: ExecuteEnvelope) => ({
  status: envelope.status,
  error: envelope.error,
  calls: envelope.calls,
});

describe('a profile only curates', () => {
  it('hides tools and skills from search, describe, execute and the resources, as if they did not exist', async () => {
    const board = addSources(home);
    for (const [name, description] of [
      ['pdf-forms', 'Fill in PDF forms from a JSON description of the fields.'],
      ['secret-notes', 'Keep secret notes about the board posts.'],
    ] as const) {
      await cliOk(['hub', 'skills', 'add', folders.write(name, { 'SKILL.md': skillMd(name, description) })]);
    }
    await cliOk([
      ...['hub', 'profiles', 'create', 'reader', '--namespaces', 'memory'],
      ...['--tools', 'memory.read_graph,memory.search_nodes', '--skills', 'pdf-forms'],
    ]);
    const reader = await serve('reader');
    expect((await reader.listTools()).tools.map((t) => t.name)).toEqual(['search', 'describe', 'execute']);

    // search: only the visible tools and skills.
    const listed = await text(reader, 'search', { query: '' });
    expect(listed).toContain('memory  2 tools');
    expect(listed).not.toContain('board');
    const found = await text(reader, 'search', { query: 'post a message to the board' });
    expect(found).not.toMatch(/board\.|create_entities|secret-notes/);
    const hiddenNamespace = await text(reader, 'search', { query: '', namespace: 'board' });
    expect(hiddenNamespace).toBe(
      (await text(reader, 'search', { query: '', namespace: 'boarx' })).replaceAll('boarx', 'board'),
    );
    expect(await text(reader, 'search', { query: 'secret notes board' })).not.toContain('secret-notes');

    // describe: a hidden tool or skill answers as one that does not exist.
    for (const [hidden, missing] of [
      ['board.post', 'board.nope'],
      ['memory.create_entities', 'memory.nope'],
      ['skill:secret-notes', 'skill:nope'],
    ] as const) {
      const asHidden = await text(reader, 'describe', { targets: [hidden] });
      const asMissing = await text(reader, 'describe', { targets: [missing] });
      expect(asHidden, hidden).toBe(asMissing.replaceAll(missing, hidden));
    }
    expect(await text(reader, 'describe', { targets: ['memory.read_graph'] })).toContain('read_graph');

    // execute: code calling a hidden tool fails as for a tool that does not exist; nothing is sent.
    // (The "did you mean" that follows names only visible tools, nearest to the name called.)
    const notATool = (envelope: ExecuteEnvelope, address: string) => {
      expect(failure(envelope)).toEqual({
        status: 'failed',
        error: expect.objectContaining({ code: 'uncaught' }),
        calls: [],
      });
      expect(envelope.error?.message).toMatch(
        new RegExp(`^TypeError: ${address.replace('.', '\\.')} is not a tool\\.`),
      );
      expect(envelope.error?.message).not.toMatch(/board\.|create_entities.*create_entities/);
    };
    notATool(
      await run(reader, 'return await memory.create_entities({ entities: [] });'),
      'memory.create_entities',
    );
    notATool(await run(reader, 'return await memory.nope({ entities: [] });'), 'memory.nope');
    const hiddenBoard = failure(await run(reader, 'return await board.post({ text: "x" });'));
    const missingBoard = failure(await run(reader, 'return await boarx.post({ text: "x" });'));
    expect(hiddenBoard.status).toBe('failed');
    expect(JSON.stringify(hiddenBoard)).toBe(JSON.stringify(missingBoard).replaceAll('boarx', 'board'));
    expect(board.posts()).toEqual([]);
    // hub.search inside the code sees what the profile sees.
    const inside = await run(reader, 'return await hub.search("post a message to the board");');
    expect(JSON.stringify(inside.result)).not.toContain('board.post');
    expect((await run(reader, 'return await memory.read_graph({});')).status).toBe('completed');

    // The resources: only the visible skill.
    expect((await reader.listResources()).resources.map((r) => r.uri)).toEqual([
      'skill://pdf-forms/SKILL.md',
    ]);
    // A hidden skill answers exactly as one the hub does not hold.
    const refusal = async (uri: string) =>
      String(await reader.readResource({ uri }).catch((error: unknown) => error)).replace(uri, '<uri>');
    expect(await refusal('skill://secret-notes/SKILL.md')).toBe(
      await refusal('skill://no-such-skill/SKILL.md'),
    );
    expect(await refusal('skill://secret-notes/SKILL.md')).toMatch(/not found/i);

    // The default profile is untouched.
    const everything = await serve('default');
    expect(await text(everything, 'search', { query: '' })).toMatch(/board {2}\d+ tools/);
    expect((await everything.listResources()).resources.map((r) => r.uri)).toEqual([
      'skill://pdf-forms/SKILL.md',
      'skill://secret-notes/SKILL.md',
    ]);

    // Resume: another profile's run is no run of this endpoint's, ended or waiting, so a run id
    // opens neither what the profile hides nor the result of a run that read it.
    const wide = await run(everything, 'return await board.post({ text: "wide" });');
    expect(wide.status).toBe('awaiting_approval');
    const read = await run(everything, 'return (await hub.search("post a message")).length;');
    expect(read.status).toBe('completed');
    for (const runId of [wide.runId, read.runId]) {
      const resumed = await call(reader, 'execute', { resume: runId });
      expect(resumed.isError).toBe(true);
      expect(textOf(resumed)).toMatch(new RegExp(`no run ${runId}`));
    }
    expect(board.posts()).toEqual([]);
  }, 120_000);
});
