/**
 * People of the hosted hub as workerd tests make them: a signed-in browser (the session cookie
 * and its CSRF token), a person's own HubObject, and things placed straight into it the way the
 * engine records them (a reviewed HTTP source, a run waiting on one call). Shared by the hosted
 * dashboard and I5 tenant tests (test/invariants/).
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { HubEnv } from '../../durable-objects/hub-env.ts';
import type { HubObject } from '../../durable-objects/hub-object.ts';
import type { Decision } from '../../engine/contracts/runs.ts';
import { buildManifest, type ListedTool } from '../../engine/manifest.ts';
import { createSession, readSignIn } from '../../worker/sign-in/sessions.ts';

const hubEnv = env as unknown as HubEnv;
const DAY = 24 * 60 * 60 * 1000;

/** The HubObject of `person` (`github:<id>`), as the Worker reaches it. */
export const hubOf = (person: string) => hubEnv.HUB.get(hubEnv.HUB.idFromName(person));

/** A browser signed in as GitHub user `id`: its session cookie (`name=value`) and the session's CSRF token. */
export async function signedIn(id: number, login: string): Promise<{ cookie: string; csrf: string }> {
  const { cookie } = await createSession(hubEnv, { id, login });
  const pair = cookie.split(';')[0] ?? '';
  const session = await readSignIn(
    new Request('https://hub.example/', { headers: { cookie: pair } }),
    hubEnv,
  );
  if (!session) throw new Error('the session did not read back');
  return { cookie: pair, csrf: session.csrf };
}

/** A run of `person`'s hub waiting on one approval of `address` (pending id `<runId>_p0`). */
export async function waitingRun(person: string, runId: string, address = 'board.post'): Promise<void> {
  await runInDurableObject(hubOf(person), async (hub: HubObject) => {
    const now = Date.now();
    hub.store.createRun({
      id: runId,
      profile: 'default',
      status: 'awaiting_input',
      code: `await ${address}({})`,
      seed: 'ab',
      clockOrigin: now,
      attempts: 1,
      logs: [],
      notices: [],
      createdAt: now,
      updatedAt: now,
    });
    hub.store.addPendingInput({
      id: `${runId}_p0`,
      runId,
      seq: 0,
      kind: 'approval',
      address,
      connection: null,
      summary: `Call ${address}.`,
      argsPreview: '{}',
      argsDigest: 'ab'.repeat(32),
      contract: 'cd'.repeat(32),
      reason: `${address} is not read-only, so it asks`,
      createdAt: now,
      expiresAt: now + DAY,
    });
  });
}

/** The decisions recorded on `runId` in `person`'s hub. */
export const decisionsOf = (person: string, runId: string): Promise<Decision[]> =>
  runInDurableObject(hubOf(person), async (hub: HubObject) => hub.store.listDecisions(runId));

/** Adds `namespace` to `person`'s hub as a reviewed HTTP source at `url`, with `tools`. */
export async function reviewedSource(
  person: string,
  namespace: string,
  url: string,
  tools: ListedTool[],
): Promise<void> {
  await runInDurableObject(hubOf(person), async (hub: HubObject) => {
    const now = Date.now();
    const manifest = await buildManifest({ namespace, fetchedAt: now, tools });
    hub.store.atomically(() => {
      hub.store.addSource({
        kind: 'mcp-http',
        namespace,
        url,
        allowedHosts: [new URL(url).hostname],
        addedAt: now,
        updatedAt: now,
      });
      hub.store.putManifest(manifest);
      for (const tool of manifest.tools) {
        hub.store.putReview({
          address: tool.address,
          namespace,
          contract: tool.contract,
          tool,
          reviewedAt: now,
        });
      }
    });
  });
}
