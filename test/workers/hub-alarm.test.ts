/**
 * The HubObject's housekeeping on its alarm: a run that asks sets the alarm at its request's
 * expiry, and the alarm expires a run whose request was not decided in time, then sets itself
 * for the next open request.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import type { HubEnv } from '../../durable-objects/hub-env.ts';
import type { HubObject } from '../../durable-objects/hub-object.ts';
import { addTestSources } from '../conformance/runs.suite.ts';

const hubs = (env as unknown as HubEnv).HUB;

it('a run that asks sets the alarm at its expiry; the alarm expires what was not decided', async () => {
  const stub = hubs.get(hubs.idFromName(`alarm-${crypto.randomUUID()}`));
  const asked = await runInDurableObject(stub, async (hub: HubObject, state) => {
    await addTestSources(hub.store);
    const answer = await hub.execute('return await board.post({ text: "x" })');
    if (!answer.ok) throw new Error(answer.message);
    expect(answer.value.status).toBe('awaiting_approval');
    const [pending] = hub.store.listPendingInputs(answer.value.runId);
    expect(await state.storage.getAlarm()).toBe(pending?.expiresAt);

    // A second run whose request is already past its expiry, as if a day went by.
    const now = Date.now();
    hub.store.createRun({
      id: 'run_overdue',
      profile: 'default',
      status: 'awaiting_input',
      code: 'return await board.post({ text: "late" })',
      seed: 'seed',
      clockOrigin: now,
      attempts: 1,
      logs: [],
      notices: [],
      createdAt: now - 1,
      updatedAt: now - 1,
    });
    hub.store.addPendingInput({
      id: 'pending_overdue',
      runId: 'run_overdue',
      seq: 0,
      kind: 'approval',
      address: 'board.post',
      connection: null,
      summary: 'Post a message to the board.',
      argsPreview: '{"text":"late"}',
      argsDigest: null,
      contract: null,
      reason: 'writes: not declared read-only',
      createdAt: now - 2,
      expiresAt: now - 1,
    });
    return answer.value.runId;
  });

  expect(await runDurableObjectAlarm(stub)).toBe(true);
  await runInDurableObject(stub, async (hub: HubObject, state) => {
    expect(hub.store.getRun('run_overdue')?.status).toBe('expired');
    expect(hub.store.getRun(asked)?.status).toBe('awaiting_input');
    const [pending] = hub.store.listPendingInputs(asked);
    expect(await state.storage.getAlarm()).toBe(pending?.expiresAt);
  });
});
