/**
 * `hub push` and `hub status` as logic (local/hosted/push.ts, hosted-status.ts, plan-text.ts),
 * against a stand-in hosted hub (test/node/hosted-standin.ts: real HTTP, the engine's own
 * ConfigurationPush) through a HostedClient with a fixed token: the plan as a person reads it, an
 * empty plan applies nothing, applying sends the hash the plan returned, a plan that changed is
 * refused, each secret is offered once and only consented values leave, stdio sources are skipped
 * with their reason and never offered a secret.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hostedWording } from '../../durable-objects/hosted-wording.ts';
import { configurationOf } from '../../engine/configuration/configuration-of.ts';
import type { HubConfiguration, PlanAnswer } from '../../engine/contracts/configuration.ts';
import { HubError } from '../../engine/errors.ts';
import { HOSTED_PATHS } from '../../local/hosted/hosted-api.ts';
import { hostedStatus, statusText } from '../../local/hosted/hosted-status.ts';
import { planText } from '../../local/hosted/plan-text.ts';
import { type PushDeps, push, type SecretOffer, secretOffers } from '../../local/hosted/push.ts';
import { type LocalStore, openLocalStore } from '../../local/open-store.ts';
import {
  BOARD_KEY,
  BOARD_SECRET,
  fillLocalHub,
  type HostedStandin,
  startHostedStandin,
  WIKI_KEY,
} from './hosted-standin.ts';

let dir: string;
let local: LocalStore;
let hosted: HostedStandin;
let configuration: HubConfiguration;
/** The local secret store: the board's value and the stdio server's; none for the wiki. */
const localSecrets = new Map([
  [BOARD_KEY, BOARD_SECRET],
  ['MEM__DEFAULT__TOKEN', 'mem-secret-value-0c1d'],
]);

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'capabilities-hosted-push-'));
  local = openLocalStore(join(dir, 'local.db'), 0);
  await fillLocalHub(local.store);
  configuration = configurationOf(local.store);
  hosted = await startHostedStandin(dir);
});
afterEach(async () => {
  await hosted.close();
  local.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Push deps that record what the person was shown and asked; apply answers `apply`. */
function person(apply: boolean, consent?: (offer: SecretOffer) => boolean) {
  const seen = {
    shown: [] as PlanAnswer[],
    asked: [] as SecretOffer[],
    absent: [] as SecretOffer[],
    applyAsked: 0,
  };
  const deps: PushDeps = {
    client: hosted.client(),
    configuration,
    skillFiles: (names) =>
      Object.fromEntries(
        names.map((name) => [
          name,
          (local.store.getSkillContents(name) ?? []).map((file) => ({
            path: file.path,
            base64: Buffer.from(file.data).toString('base64'),
          })),
        ]),
      ),
    show: (answer) => seen.shown.push(answer),
    confirmApply: async () => {
      seen.applyAsked++;
      return apply;
    },
    ...(consent
      ? {
          secrets: {
            store: { get: async (key: string) => localSecrets.get(key) },
            consent: async (offer: SecretOffer) => {
              seen.asked.push(offer);
              return consent(offer);
            },
            absent: (offer: SecretOffer) => seen.absent.push(offer),
          },
        }
      : {}),
  };
  return { deps, seen };
}

const bodies = (path: string) =>
  hosted.requests
    .filter((r) => r.path === path)
    .map((r) => r.body as { secrets?: object; planHash?: string });

describe('push', () => {
  it('shows the plan source by source and tool by tool, with the stdio source skipped and why', async () => {
    const { deps, seen } = person(false);
    const outcome = await push(deps);
    expect(outcome.applied).toBe(false);
    expect(seen.shown).toHaveLength(1);
    const text = planText(outcome.plan, outcome.hash, hosted.url);
    expect(text.split('\n')[0]).toBe(`Plan ${outcome.hash.slice(0, 12)} for ${hosted.url}:`);
    expect(text).toContain('  add     board  https://board.example/mcp');
    expect(text).toContain('            tool add     board.list_posts  (read-only)');
    expect(text).toContain('            tool add     board.create_post  (writes)');
    expect(text).toContain('            connection board/default (default): add');
    expect(text).toMatch(
      /secret BOARD__DEFAULT__AUTHORIZATION \(header Authorization \(Bearer\)\): missing \(neither hub sends one/,
    );
    expect(text).toMatch(/rule add {5}ask on board\.create_post, pinned/);
    expect(text).toMatch(
      / {2}skip {4}mem {2}npx -y @modelcontextprotocol\/server-memory\n {12}why: it runs a program on your computer/,
    );
    expect(text.split('\n').at(-1)).toBe('Sources: 2 to add, 0 to change, 0 to remove, 1 skipped, 0 kept.');
    // Nothing applied: the hosted hub is as it was.
    expect(hosted.store.listSources()).toEqual([]);
    expect(bodies(HOSTED_PATHS.apply)).toEqual([]);
  });

  it('applies with the hash the plan returned; pushed again, the plan is empty and nothing is applied', async () => {
    const first = person(true);
    const applied = await push(first.deps);
    const [plan] = bodies(HOSTED_PATHS.plan);
    expect(applied).toMatchObject({ applied: true, appliedAt: 1_800_000_000_000 });
    expect(bodies(HOSTED_PATHS.apply)).toEqual([
      { configuration, secrets: {}, planHash: first.seen.shown[0]?.hash, skillFiles: {} },
    ]);
    expect(plan).toEqual({ configuration, secrets: {} });
    expect(hosted.store.listSources().map((s) => s.namespace)).toEqual(['board', 'wiki']);

    const again = person(true);
    const outcome = await push(again.deps);
    expect(outcome).toMatchObject({ applied: false });
    expect(outcome.plan.empty).toBe(true);
    expect(again.seen).toMatchObject({ shown: [], applyAsked: 0 });
    expect(bodies(HOSTED_PATHS.apply)).toHaveLength(1);
  });

  it('a plan that changed after it was shown is refused with what to run; nothing is applied', async () => {
    hosted.beforeNextApply((store) =>
      store.addSource({
        kind: 'mcp-http',
        namespace: 'other',
        url: 'https://other.example/mcp',
        allowedHosts: ['other.example'],
        addedAt: 5,
        updatedAt: 5,
      }),
    );
    const { deps, seen } = person(true);
    const error = await push(deps).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubError);
    expect((error as HubError).code).toBe('conflict');
    expect((error as HubError).message).toBe(
      `the hosted hub at ${hosted.url} changed since plan ${seen.shown[0]?.hash.slice(0, 12)} was made, so nothing was applied; run \`capabilities hub push\` again to see the plan as it is now`,
    );
    expect(hosted.store.listSources().map((s) => s.namespace)).toEqual(['other']);
  });

  it('--secrets asks once per secret of each pushed connection, never for a stdio source, and sends only consented values', async () => {
    const declineAll = person(false, () => false);
    await push(declineAll.deps);
    // The wiki's value is not in the local store: said, never asked. The stdio server's: never offered.
    expect(declineAll.seen.asked.map((o) => o.key)).toEqual([BOARD_KEY]);
    expect(declineAll.seen.absent.map((o) => o.key)).toEqual([WIKI_KEY]);
    expect(declineAll.seen.asked[0]).toMatchObject({
      namespace: 'board',
      connection: 'default',
      delivery: 'header Authorization (Bearer)',
      hosted: 'missing',
    });
    expect(bodies(HOSTED_PATHS.plan).map((b) => b.secrets)).toEqual([{}]);

    hosted.requests.length = 0;
    const consentAll = person(true, () => true);
    const outcome = await push(consentAll.deps);
    expect(consentAll.seen.asked.map((o) => o.key)).toEqual([BOARD_KEY]);
    // Planned again with the value, so the hash applied covers it.
    expect(bodies(HOSTED_PATHS.plan).map((b) => b.secrets)).toEqual([{}, { [BOARD_KEY]: BOARD_SECRET }]);
    const [apply] = bodies(HOSTED_PATHS.apply);
    expect(apply).toMatchObject({ secrets: { [BOARD_KEY]: BOARD_SECRET }, planHash: outcome.hash });
    const board = outcome.plan.sources.find((s) => s.namespace === 'board');
    expect(board?.connections[0]?.secrets[0]?.value).toBe('set');
    expect(hosted.secrets.values.get(BOARD_KEY)).toBe(BOARD_SECRET);
    expect(JSON.stringify(outcome)).not.toContain(BOARD_SECRET);
    expect(JSON.stringify(hosted.requests)).not.toContain('mem-secret-value-0c1d');
  });

  it('never offers an OAuth sign-in, even with --secrets: its grant stays here, and push names the connection', async () => {
    const key = 'BOARD__SIGNED__OAUTH';
    const grant = JSON.stringify({
      access_token: 'at-local-0123456789abcdef',
      refresh_token: 'rt-local-0123456789abcdef',
      authorization_server: 'https://auth.example',
      token_endpoint: 'https://auth.example/token',
      client_id: 'loopback-client',
    });
    local.store.putConnection({
      namespace: 'board',
      name: 'signed',
      isDefault: false,
      secrets: [{ key, delivery: { kind: 'oauth' }, setAt: 3 }],
      createdAt: 3,
    });
    configuration = configurationOf(local.store);
    localSecrets.set(key, grant);
    try {
      const consentAll = person(true, () => true);
      const outcome = await push(consentAll.deps);
      expect(consentAll.seen.asked.map((o) => o.key)).toEqual([BOARD_KEY]);
      expect(consentAll.seen.absent.map((o) => o.key)).toEqual([WIKI_KEY]);
      expect(outcome.signInsKept).toEqual([{ namespace: 'board', connection: 'signed' }]);
      expect(JSON.stringify(hosted.requests)).not.toContain('-local-0123456789abcdef');
      expect(hosted.secrets.values.has(key)).toBe(false);
      // What the hosted hub tells a person of that connection: sign in there, on the source's page.
      expect(hostedWording.signInAgain('board', 'signed')).toBe(
        `use Sign in again for "board/signed" on the source's page in the hub's dashboard`,
      );
    } finally {
      localSecrets.delete(key);
    }
  });

  it('offers no secret of a source the plan skips', () => {
    const plan = {
      format: 1,
      empty: false,
      sources: [
        {
          namespace: 'board',
          kind: 'mcp-http' as const,
          change: 'skip' as const,
          where: 'x',
          reason: 'a private address',
          tools: [],
          toolsKept: 0,
          connections: [],
          reviews: [],
          rules: [],
        },
      ],
      profiles: [],
      skills: [],
    };
    expect(secretOffers(configuration, plan).map((o) => o.key)).toEqual([WIKI_KEY]);
  });
});

describe('status', () => {
  it('shows who is signed in where, the hosted sources, waiting runs, the last plan and what differs', async () => {
    const before = await hostedStatus(hosted.client(), configuration);
    expect(before.comparison?.match).toBe(false);
    const text = statusText(before, 'no local hub');
    expect(text).toContain(`Signed in to ${hosted.url} as octocat (hub hub_hosted1, schema version`);
    expect(text).toContain('No hosted sources.');
    expect(text).toContain(
      'Runs waiting for a person (1):\n  run_waiting1  board.create_post  Create a post "hello"  (since 2023-11-14T22:13:20.000Z)',
    );
    expect(text).toContain('No plan applied yet.');
    expect(text).toContain(
      'Local and hosted differ; `capabilities hub push` would:\n  add     board, 2 tool changes\n  skip    mem: it runs a program on your computer, which the hosted hub cannot do: it stays on your local hub\n  add     wiki',
    );
    // Status never sends a secret or applies anything.
    expect(bodies(HOSTED_PATHS.plan).map((b) => b.secrets)).toEqual([{}]);
    expect(bodies(HOSTED_PATHS.apply)).toEqual([]);

    const applied = await push(person(true).deps);
    const after = await hostedStatus(hosted.client(), configuration);
    const again = statusText(after, 'no local hub');
    expect(again).toContain(
      'Hosted sources (2):\n  board  https://board.example/mcp  2 tools  no value yet for',
    );
    expect(again).toContain(`Last plan applied: ${applied.hash.slice(0, 12)} at 2027-01-15T08:00:00.000Z.`);
    expect(again).toContain('Local and hosted match. Stays local (cannot run hosted): mem.');
  });

  it('without a local hub, says so instead of comparing', async () => {
    const report = await hostedStatus(hosted.client(), undefined);
    expect(report.comparison).toBeNull();
    expect(statusText(report, 'There is no local hub.').split('\n').at(-1)).toBe('There is no local hub.');
    expect(hosted.requests.map((r) => r.path)).toEqual([HOSTED_PATHS.status]);
  });
});
