/**
 * The hosted hub's scrubber knows the hub's own secrets (issue: security, finding 2): the bearer
 * token and the client-prompt key never leave the HubObject in a result, even when an upstream
 * or the guest's code puts them there.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import type { HubEnv } from '../../durable-objects/hub-env.ts';
import type { HubObject } from '../../durable-objects/hub-object.ts';
import { SCRUBBED } from '../../engine/secrets/scrub.ts';
import { PROMPT_KEY_SETTING } from '../../engine/settings.ts';
import { addTestSources } from '../conformance/runs.suite.ts';
import { WORKERS_TEST_TOKEN } from './token.ts';

const hubs = (env as unknown as HubEnv).HUB;

it('scrubs the HUB_TOKEN and the prompt key from what a run returns', async () => {
  const stub = hubs.get(hubs.idFromName(`secrets-${crypto.randomUUID()}`));
  await runInDurableObject(stub, async (hub: HubObject) => {
    await addTestSources(hub.store);
    const key = hub.store.claimSetting(PROMPT_KEY_SETTING, 'ab'.repeat(32));
    // Code that got hold of them (it cannot, but a result is scrubbed whatever its source).
    const answer = await hub.execute(
      `return { token: ${JSON.stringify(WORKERS_TEST_TOKEN)}, key: ${JSON.stringify(key)}, basic: btoa("hub:" + ${JSON.stringify(WORKERS_TEST_TOKEN)}) }`,
    );
    if (!answer.ok) throw new Error(answer.message);
    expect(answer.value).toMatchObject({ status: 'completed', result: { token: SCRUBBED, key: SCRUBBED } });
    const text = JSON.stringify(answer.value);
    expect(text).not.toContain(WORKERS_TEST_TOKEN);
    expect(text).not.toContain(key);
    expect(text).not.toContain(btoa(`hub:${WORKERS_TEST_TOKEN}`).slice(8, 40));
    // Stored scrubbed too (the run's code is the model's own text, not something the hub hands out).
    expect(JSON.stringify(hub.store.getRun(answer.value.runId)?.result)).not.toContain(WORKERS_TEST_TOKEN);
  });
});
