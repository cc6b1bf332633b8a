/**
 * An existing hub with no sources, over the real surface (`hub serve --stdio` and the official
 * SDK client): `search` answers that the hub has no sources and how the person adds one, never
 * "No tools match"; `execute` still runs code that names no tool, and every execute's notices
 * carry the same line, so the model learns the hub is empty even when its code fails for a
 * namespace that does not exist.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { localWording } from '../../local/wording.ts';
import { cli, hubHome } from './cli-process.ts';
import { stdioClient, textOf } from './surface-fixture.ts';

const EMPTY = `No tools yet: this hub has no sources. Ask the user to ${localWording.addSource}.`;

let home: string;
let remove: () => void;
let client: Client | undefined;
beforeEach(() => {
  ({ home, remove } = hubHome());
  expect(cli(home, ['hub', 'init']).status).toBe(0);
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  remove();
});

const envelopeOf = (result: object) =>
  ('structuredContent' in result ? result.structuredContent : undefined) as ExecuteEnvelope;

describe('a hub with no sources, over stdio', () => {
  it('answers search with the empty-hub line and how to add a source, whatever the query', async () => {
    ({ client } = await stdioClient(home, 'auto'));
    const found = await client.callTool({ name: 'search', arguments: { query: 'create a GitHub issue' } });
    expect(found.isError).not.toBe(true);
    expect(textOf(found)).toBe(EMPTY);
    expect(textOf(found)).not.toContain('No tools match');
    expect(textOf(found)).toContain('`capabilities hub add <ref>`');
    expect(textOf(found)).toContain('`capabilities hub import`');
    const listed = await client.callTool({ name: 'search', arguments: { query: '' } });
    expect(textOf(listed)).toBe(EMPTY);
  }, 60_000);

  it('runs code that names no tool, with the empty-hub notice', async () => {
    ({ client } = await stdioClient(home, 'auto'));
    const ran = envelopeOf(await client.callTool({ name: 'execute', arguments: { code: 'return 1 + 1' } }));
    expect(ran).toMatchObject({ status: 'completed', result: 2, notices: [EMPTY] });
  }, 60_000);

  it('tells the model the hub is empty when its code fails for a namespace that does not exist', async () => {
    ({ client } = await stdioClient(home, 'legacy'));
    const result = await client.callTool({
      name: 'execute',
      arguments: { code: 'return await github.search_issues({ q: "bug" })' },
    });
    const failed = envelopeOf(result);
    expect(failed.status).toBe('failed');
    expect(failed.error?.message).toContain("'github' is not defined");
    expect(failed.notices).toEqual([EMPTY]);
    // The text the model reads says it too, not only the structured envelope.
    expect(textOf(result)).toContain('this hub has no sources');
  }, 60_000);
});
