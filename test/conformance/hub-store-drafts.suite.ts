/**
 * The HubStore contract, part four: source drafts (engine/store/draft-records.ts), the sources a
 * person is adding from the dashboard. Called from describeHubStore (hub-store.suite.ts), so it
 * runs in both runtimes. A draft is stored whole and read back as stored (an OpenAPI document's
 * with its server, allowed hosts and the credentials it asks for), taken once (of two takers one
 * gets it), swept at its expiry (returned, so the caller can delete its secret), and refused when
 * it fails its schema.
 */
import { expect } from 'vitest';
import type { z } from 'zod';
import type { SourceDraftRecord } from '../../engine/contracts/source-drafts.ts';
import type { HttpSource } from '../../engine/contracts/sources.ts';
import { digest, fixtures, rejectsWith, T0 } from './hub-store.fixtures.ts';
import type { StoreUnderTest } from './hub-store.suite.ts';

type Check = (title: string, body: (s: StoreUnderTest) => Promise<void> | void) => void;

const draft = (n: string, expiresAt = T0 + 600_000): SourceDraftRecord => ({
  id: `draft_${n.repeat(32)}`,
  source: fixtures.http('linear') as z.infer<typeof HttpSource>,
  manifest: {
    namespace: 'linear',
    fetchedAt: T0,
    server: { name: 'linear', version: '1.0.0' },
    tools: [
      {
        address: 'linear.list_issues',
        name: 'list_issues',
        inputSchema: { type: 'object' },
        annotations: { readOnlyHint: true },
        contract: digest('c'),
      },
    ],
  },
  notices: ['one tool was left out'],
  credential: {
    key: `DRAFT__DRAFT_${n.toUpperCase().repeat(32)}__AUTHORIZATION`,
    delivery: { kind: 'header', name: 'Authorization', scheme: 'Bearer' },
  },
  asks: [],
  createdAt: T0,
  expiresAt,
});

export function describeDraftRecords(check: Check): void {
  check('a source draft reads back as stored and is taken once', async ({ store }) => {
    store.addSourceDraft(draft('a'));
    await rejectsWith('conflict', () => store.addSourceDraft(draft('a')));
    expect(store.getSourceDraft(draft('a').id)).toEqual(draft('a'));
    expect(store.takeSourceDraft(draft('a').id)).toEqual(draft('a'));
    expect(store.takeSourceDraft(draft('a').id)).toBeUndefined();
    expect(store.getSourceDraft(draft('a').id)).toBeUndefined();
    store.addSourceDraft({ ...draft('b'), credential: null });
    expect(store.getSourceDraft(draft('b').id)?.credential).toBeNull();
  });

  check('an OpenAPI document’s draft reads back with its server, hosts and credential asks', ({ store }) => {
    const document: SourceDraftRecord = {
      ...draft('c'),
      source: {
        kind: 'openapi',
        namespace: 'petstore',
        document: 'https://petstore.example/openapi.json',
        url: 'https://api.petstore.example/v2',
        allowedHosts: ['api.petstore.example'],
        addedAt: T0,
        updatedAt: T0,
      },
      credential: null,
      asks: [
        {
          scheme: 'petstore_auth',
          delivery: { kind: 'oauth' },
          label: 'OAuth 2 sign-in (authorization code flow)',
          oauth: {
            authorizationUrl: 'https://petstore.example/oauth/authorize',
            tokenUrl: 'https://petstore.example/oauth/token',
            scopes: ['read:pets'],
          },
        },
        {
          scheme: 'api_key',
          delivery: { kind: 'header', name: 'api_key', scheme: '' },
          label: 'API key in header api_key',
        },
        {
          scheme: 'pass',
          delivery: { kind: 'header', name: 'Authorization', scheme: 'Basic' },
          basic: true,
          label: 'HTTP basic',
        },
        { scheme: 'oidc', label: 'OpenID Connect sign-in, which the hub does not support' },
      ],
    };
    store.addSourceDraft(document);
    expect(store.getSourceDraft(document.id)).toEqual(document);
    expect(store.takeSourceDraft(document.id)).toEqual(document);
  });

  check('sweeping deletes and returns the drafts that expired', ({ store }) => {
    store.addSourceDraft(draft('a', T0 + 10));
    store.addSourceDraft(draft('b', T0 + 100));
    expect(store.sweepSourceDrafts(T0 + 10).map((d) => d.id)).toEqual([draft('a').id]);
    expect(store.sweepSourceDrafts(T0 + 10)).toEqual([]);
    expect(store.getSourceDraft(draft('b').id)).toEqual(draft('b', T0 + 100));
  });

  check('a source draft that fails its schema is refused', async ({ store }) => {
    await rejectsWith('invalid_input', () => store.addSourceDraft({ ...draft('a'), id: 'draft_guessable' }));
    await rejectsWith('invalid_input', () =>
      store.addSourceDraft({
        ...draft('a'),
        source: fixtures.stdio('memory') as unknown as SourceDraftRecord['source'],
      }),
    );
    expect(store.getSourceDraft(draft('a').id)).toBeUndefined();
  });
}
