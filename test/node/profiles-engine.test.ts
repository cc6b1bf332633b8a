/**
 * Profiles in the engine, over the corpus stored like added sources: a profile's Lookup indexes,
 * describes and lists only what it shows, follows an edit made meanwhile (the index rebuilt), and
 * its stamp moves when a source it may show changes; the checks name what exists in the host's
 * words, so on the hosted hub no message names a CLI command; and the direct tools of a profile
 * are the stored tools themselves.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hostedWording } from '../../durable-objects/hosted-wording.ts';
import { Lookup } from '../../engine/lookup.ts';
import { Profiles } from '../../engine/profiles/profiles.ts';
import { type LocalStore, openLocalStore } from '../../local/open-store.ts';
import { localWording } from '../../local/wording.ts';
import { corpusManifests } from '../corpus.ts';
import { storeSources } from '../stored-sources.ts';
import { hubHome } from './cli-process.ts';

let local: LocalStore;
let remove: () => void;
let now = 1_000;
const clock = { now: () => now++ };

beforeEach(async () => {
  const temp = hubHome();
  remove = temp.remove;
  local = openLocalStore(join(temp.home, 'hub.db'), 0);
  storeSources(local.store, await corpusManifests());
});
afterEach(() => {
  local.close();
  remove();
});

describe('a profile in the engine', () => {
  it('shows only what it lists, follows edits, and its stamp moves with what it may show', () => {
    const profiles = new Profiles(local.store, clock, localWording);
    const github = local.store.getManifest('github');
    const first = github?.tools[0]?.address ?? '';
    profiles.create('narrow', { namespaces: ['github'], tools: [first] });
    const lookup = new Lookup(local.store, localWording, () => profiles.view('narrow'));

    expect(lookup.tools().map((t) => t.address)).toEqual([first]);
    expect(lookup.tools()[0]).toEqual(github?.tools[0]);
    expect(lookup.search({ query: '' })).toMatch(/^github {2}1 tool/);
    expect(() => lookup.search({ query: '', namespace: 'slack' })).toThrow(/no namespace "slack"/);
    expect(() => lookup.describe(['slack'])).toThrow(/describe found no namespace "slack"/);

    const before = lookup.stamp();
    profiles.edit('narrow', { tools: null });
    expect(lookup.stamp()).not.toBe(before);
    expect(lookup.tools()).toHaveLength(github?.tools.length ?? 0);
    expect(lookup.search({ query: '' })).toMatch(new RegExp(`^github {2}${github?.tools.length} tools`));

    const edited = lookup.stamp();
    local.store.removeSource('slack');
    expect(lookup.stamp()).not.toBe(edited);
  });

  it("words every refusal in the host's words: the hosted hub names no command", () => {
    const profiles = new Profiles(local.store, clock, hostedWording);
    const messages: string[] = [];
    const refused = (body: () => unknown) => {
      try {
        body();
      } catch (error) {
        messages.push((error as Error).message);
        return;
      }
      throw new Error('not refused');
    };
    refused(() => profiles.create('a', { namespaces: ['githb'] }));
    refused(() => profiles.create('a', { tools: ['github.nope'] }));
    refused(() => profiles.create('a', { skills: ['nope'] }));
    refused(() => profiles.get('nope'));
    refused(() => profiles.remove('default'));
    refused(() => profiles.create('default', {}));
    expect(messages[0]).toMatch(
      /no namespace "githb" \(did you mean "github"\?\).*see the sources in the hub's dashboard/,
    );
    expect(messages[2]).toMatch(
      /no skill "nope"; skills: none yet\. Skills come from a local hub: add one there, then push the local hub to this one\./,
    );
    expect(messages[3]).toMatch(
      /no profile "nope"; profiles: default\. Profiles come from a local hub: create one there, then push the local hub to this one\./,
    );
    for (const message of messages) expect(message).not.toMatch(/capabilities hub|`/);
    expect(profiles.list().map((p) => p.name)).toEqual(['default']);
    expect(local.store.listProfiles()).toEqual([]);
  });

  it("serves an OpenAPI operation's tool in direct mode without the output schema of its first 2xx response", () => {
    const github = local.store.getManifest('github');
    if (!github) throw new Error('the corpus has github');
    const [first] = github.tools;
    if (!first) throw new Error('github has tools');
    const output = { type: 'object', properties: { id: { type: 'number' } } };
    local.store.addSource({
      kind: 'openapi',
      namespace: 'petstore',
      document: 'https://petstore.example/openapi.json',
      url: 'https://petstore.example',
      allowedHosts: ['petstore.example'],
      addedAt: 0,
      updatedAt: 0,
    });
    local.store.putManifest({
      ...github,
      namespace: 'petstore',
      tools: [{ ...first, address: 'petstore.get_pet', outputSchema: output }],
    });
    local.store.putManifest({ ...github, tools: [{ ...first, outputSchema: output }] });
    const profiles = new Profiles(local.store, clock, localWording);
    const lookup = new Lookup(local.store, localWording, () => profiles.view('default'));
    const tools = new Map(lookup.tools().map((tool) => [tool.address, tool]));
    expect(tools.get('petstore.get_pet')).toBeDefined();
    expect(tools.get('petstore.get_pet')?.outputSchema).toBeUndefined();
    expect(tools.get(first.address)?.outputSchema).toEqual(output);
  });
});
