/**
 * Tool addresses (engine/address.ts): exact identifiers for the awkward names, deterministic
 * collision suffixes, and every address the real corpus produces being a valid, unique
 * `namespace.tool` (spec: Concepts, Tool address).
 */
import { describe, expect, it } from 'vitest';
import { parseToolAddress, toolAddress, toolIdentifier, toolIdentifiers } from '../../engine/address.ts';
import { Namespace, ToolAddress } from '../../engine/contracts/names.ts';
import { Manifest } from '../../engine/contracts/sources.ts';
import { CORPUS_TOOL_COUNT, corpus, corpusManifests } from '../corpus.ts';

describe('toolIdentifier', () => {
  it.each([
    // already identifiers: kept as they are
    ['create_issue', 'create_issue'],
    ['getUser', 'getUser'],
    ['$ref', '$ref'],
    ['_private', '_private'],
    // kebab-case and other separators -> camelCase; the first word keeps its case
    ['resolve-library-id', 'resolveLibraryId'],
    ['repo.get', 'repoGet'],
    ['list files', 'listFiles'],
    ['a--b', 'aB'],
    ['-leading-dash', 'leadingDash'],
    ['trailing-', 'trailing'],
    ['API-get-user', 'APIGetUser'],
    ['get_user-name', 'get_userName'],
    ['snake-UPPER', 'snakeUPPER'],
    ['v2-api', 'v2Api'],
    ['a/b:c', 'aBC'],
    // a leading digit gets `_` in front
    ['3d-render', '_3dRender'],
    ['123', '_123'],
    ['2fa', '_2fa'],
    // nothing identifier-like left
    ['', 'tool'],
    ['---', 'tool'],
    ['日本語', 'tool'],
    // non-ASCII letters are separators: addresses stay ASCII (the ToolAddress schema)
    ['créer-issue', 'crErIssue'],
    // names every object already has get `_` after
    ['constructor', 'constructor_'],
    ['__proto__', '__proto___'],
    ['toString', 'toString_'],
    ['to-string', 'toString_'],
    ['hasOwnProperty', 'hasOwnProperty_'],
    ['valueOf', 'valueOf_'],
    ['prototype', 'prototype_'],
    // names `await` and `JSON.stringify` look up on every object get `_` after too
    ['then', 'then_'],
    ['toJSON', 'toJSON_'],
    ['to-JSON', 'toJSON_'],
    // other spellings are ordinary names
    ['Then', 'Then'],
    ['to_json', 'to_json'],
    ['toJson', 'toJson'],
  ])('%j -> %j', (name, expected) => {
    expect(toolIdentifier(name)).toBe(expected);
  });
});

describe('toolIdentifiers', () => {
  it('maps each name to its identifier when nothing collides', () => {
    expect(Object.fromEntries(toolIdentifiers(['get-sum', 'echo', 'constructor']))).toEqual({
      'get-sum': 'getSum',
      echo: 'echo',
      constructor: 'constructor_',
    });
  });

  it('numbers collisions _2, _3 in code-unit order of the source names', () => {
    // ' ' (0x20) < '-' (0x2d) < '.' (0x2e)
    expect(Object.fromEntries(toolIdentifiers(['a.b', 'a-b', 'a b']))).toEqual({
      'a b': 'aB',
      'a-b': 'aB_2',
      'a.b': 'aB_3',
    });
  });

  it('gives the same addresses for every order of the same names', () => {
    const names = ['a.b', 'a-b', 'a b', 'aB', 'aB_2', 'x-y'];
    const expected = {
      aB: 'aB',
      aB_2: 'aB_2',
      'a b': 'aB_3',
      'a-b': 'aB_4',
      'a.b': 'aB_5',
      'x-y': 'xY',
    };
    for (const order of permutations(names)) {
      expect(Object.fromEntries(toolIdentifiers(order))).toEqual(expected);
    }
  });

  it('lets a name that already is an identifier claim its own spelling first', () => {
    // 'a-b' sorts before 'aB', yet 'aB' keeps 'aB'
    expect(Object.fromEntries(toolIdentifiers(['a-b', 'aB']))).toEqual({ 'a-b': 'aB_2', aB: 'aB' });
    expect(Object.fromEntries(toolIdentifiers(['get-user', 'getUser_2', 'getUser']))).toEqual({
      getUser: 'getUser',
      getUser_2: 'getUser_2',
      'get-user': 'getUser_3',
    });
  });

  it('suffixes a guarded name after it, not in place of the guard', () => {
    expect(Object.fromEntries(toolIdentifiers(['constructor', 'constructor_']))).toEqual({
      constructor_: 'constructor_',
      constructor: 'constructor__2',
    });
  });

  it('guards then and toJSON like constructor, and numbers a collision after the guard', () => {
    expect([...toolIdentifiers(['then', 'toJSON', 'then_'])]).toEqual([
      ['then_', 'then_'],
      ['then', 'then__2'],
      ['toJSON', 'toJSON_'],
    ]);
  });

  it('maps a repeated name to one entry', () => {
    const ids = toolIdentifiers(['get-sum', 'get-sum', 'getSum']);
    expect([...ids]).toEqual([
      ['getSum', 'getSum'],
      ['get-sum', 'getSum_2'],
    ]);
  });
});

describe('toolAddress and parseToolAddress', () => {
  it('joins and splits at the first dot', () => {
    expect(toolAddress('github', 'createIssue')).toBe('github.createIssue');
    expect(parseToolAddress('github.createIssue')).toEqual({ namespace: 'github', tool: 'createIssue' });
    expect(parseToolAddress('a.b.c')).toEqual({ namespace: 'a', tool: 'b.c' });
  });

  it.each(['', 'github', '.createIssue', 'github.', '.'])('%j is not an address', (address) => {
    expect(parseToolAddress(address)).toBeUndefined();
  });
});

describe('addresses of the real corpus', async () => {
  const manifests = await corpusManifests();
  const addressesOf = (namespace: string) =>
    Object.fromEntries(
      (manifests.find((m) => m.namespace === namespace)?.tools ?? []).map((tool) => [
        tool.name,
        tool.address,
      ]),
    );

  it(`holds ${corpus.length} sources and ${CORPUS_TOOL_COUNT} tools, each file named after its namespace`, () => {
    expect(corpus).toHaveLength(24);
    expect(manifests.reduce((n, m) => n + m.tools.length, 0)).toBe(CORPUS_TOOL_COUNT);
    for (const source of corpus) expect(source.file).toBe(`${source.namespace}.json`);
  });

  it.each(corpus.map((source) => source.namespace))(
    'namespace %s passes the Namespace schema',
    (namespace) => {
      expect(Namespace.safeParse(namespace).success).toBe(true);
    },
  );

  it('gives every tool a valid address, unique within its namespace and so across the hub', () => {
    const all = new Set<string>();
    for (const manifest of manifests) {
      const pattern = new RegExp(`^${manifest.namespace}\\.[A-Za-z_$][A-Za-z0-9_$]*$`);
      const inNamespace = new Set<string>();
      for (const tool of manifest.tools) {
        expect(tool.address).toMatch(pattern);
        expect(ToolAddress.safeParse(tool.address).success, tool.address).toBe(true);
        expect(inNamespace.has(tool.address), `${tool.address} twice`).toBe(false);
        inNamespace.add(tool.address);
        all.add(tool.address);
      }
    }
    expect(all.size).toBe(CORPUS_TOOL_COUNT);
  });

  it('builds manifests that pass the Manifest schema', () => {
    for (const manifest of manifests) expect(Manifest.safeParse(manifest).error).toBeUndefined();
  });

  it('camel-cases the kebab-case names of hubspot, mongodb and everything', () => {
    expect(addressesOf('everything')).toEqual({
      echo: 'everything.echo',
      'get-annotated-message': 'everything.getAnnotatedMessage',
      'get-env': 'everything.getEnv',
      'get-resource-links': 'everything.getResourceLinks',
      'get-resource-reference': 'everything.getResourceReference',
      'get-structured-content': 'everything.getStructuredContent',
      'get-sum': 'everything.getSum',
      'get-tiny-image': 'everything.getTinyImage',
      'gzip-file-as-resource': 'everything.gzipFileAsResource',
      'simulate-research-query': 'everything.simulateResearchQuery',
      'toggle-simulated-logging': 'everything.toggleSimulatedLogging',
      'toggle-subscriber-updates': 'everything.toggleSubscriberUpdates',
      'trigger-long-running-operation': 'everything.triggerLongRunningOperation',
    });
    expect(addressesOf('hubspot')).toEqual({
      'hubspot-batch-create-associations': 'hubspot.hubspotBatchCreateAssociations',
      'hubspot-batch-create-objects': 'hubspot.hubspotBatchCreateObjects',
      'hubspot-batch-read-objects': 'hubspot.hubspotBatchReadObjects',
      'hubspot-batch-update-objects': 'hubspot.hubspotBatchUpdateObjects',
      'hubspot-create-engagement': 'hubspot.hubspotCreateEngagement',
      'hubspot-create-property': 'hubspot.hubspotCreateProperty',
      'hubspot-generate-feedback-link': 'hubspot.hubspotGenerateFeedbackLink',
      'hubspot-get-association-definitions': 'hubspot.hubspotGetAssociationDefinitions',
      'hubspot-get-engagement': 'hubspot.hubspotGetEngagement',
      'hubspot-get-link': 'hubspot.hubspotGetLink',
      'hubspot-get-property': 'hubspot.hubspotGetProperty',
      'hubspot-get-schemas': 'hubspot.hubspotGetSchemas',
      'hubspot-get-user-details': 'hubspot.hubspotGetUserDetails',
      'hubspot-get-workflow': 'hubspot.hubspotGetWorkflow',
      'hubspot-list-associations': 'hubspot.hubspotListAssociations',
      'hubspot-list-objects': 'hubspot.hubspotListObjects',
      'hubspot-list-properties': 'hubspot.hubspotListProperties',
      'hubspot-list-workflows': 'hubspot.hubspotListWorkflows',
      'hubspot-search-objects': 'hubspot.hubspotSearchObjects',
      'hubspot-update-engagement': 'hubspot.hubspotUpdateEngagement',
      'hubspot-update-property': 'hubspot.hubspotUpdateProperty',
    });
    expect(addressesOf('mongodb')).toEqual({
      'aggregate-db': 'mongodb.aggregateDb',
      aggregate: 'mongodb.aggregate',
      'collection-indexes': 'mongodb.collectionIndexes',
      'collection-schema': 'mongodb.collectionSchema',
      'collection-storage-size': 'mongodb.collectionStorageSize',
      connect: 'mongodb.connect',
      count: 'mongodb.count',
      'create-collection': 'mongodb.createCollection',
      'create-index': 'mongodb.createIndex',
      'db-stats': 'mongodb.dbStats',
      'delete-many': 'mongodb.deleteMany',
      disconnect: 'mongodb.disconnect',
      'drop-collection': 'mongodb.dropCollection',
      'drop-database': 'mongodb.dropDatabase',
      'drop-index': 'mongodb.dropIndex',
      explain: 'mongodb.explain',
      export: 'mongodb.export',
      find: 'mongodb.find',
      'insert-many': 'mongodb.insertMany',
      'list-collections': 'mongodb.listCollections',
      'list-connections': 'mongodb.listConnections',
      'list-databases': 'mongodb.listDatabases',
      'list-knowledge-sources': 'mongodb.listKnowledgeSources',
      'mongodb-logs': 'mongodb.mongodbLogs',
      'rename-collection': 'mongodb.renameCollection',
      'search-knowledge': 'mongodb.searchKnowledge',
      'update-many': 'mongodb.updateMany',
    });
  });
});

/** Every ordering of `items` (fine for the handful of names used here). */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}
