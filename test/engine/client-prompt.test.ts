/**
 * The client prompt (engine/runs/client-prompt.ts), the one signed path from the MCP surface to
 * a recorded decision, written from the attacker's side: a state is accepted only as this hub
 * signed it, for this hub, for the run and calls it names, before it expires, and only while
 * those calls are undecided, so once. Forged, tampered, swapped, expired, replayed and foreign
 * states are refused, and nothing is recorded when they are.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordPersonDecision } from '../../engine/approvals/person-input.ts';
import { isHubError } from '../../engine/errors.ts';
import { PROMPT_TTL_MS } from '../../engine/runs/client-prompt.ts';
import { PROMPT_KEY_SETTING, PromptState } from '../../engine/runs/prompt-state.ts';
import { DAY, type PromptWorld, promptWorld, T0 } from './prompt-fixture.ts';

let world: PromptWorld;
beforeEach(() => {
  world = promptWorld();
});
afterEach(() => world.close());

const accept = (decision: string) => ({ action: 'accept', content: { decision } });

async function refusal(body: () => Promise<unknown>): Promise<string> {
  try {
    await body();
  } catch (error) {
    if (isHubError(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
  throw new Error('expected a refusal');
}

/** A state as the wire carries it, with its claim re-encoded (the MAC left as it was). */
function reclaimed(state: string, change: Record<string, unknown>): string {
  const [prefix, body, mac] = state.split('.');
  const claim = { ...JSON.parse(Buffer.from(body ?? '', 'base64url').toString('utf8')), ...change };
  return `${prefix}.${Buffer.from(JSON.stringify(claim)).toString('base64url')}.${mac}`;
}

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** The 43rd character of a 32-byte MAC carries 2 unused bits: flip one, the bytes stay the same. */
const sameBytes = (last: string) => B64URL[B64URL.indexOf(last) ^ 1] ?? 'A';

const decisions = (runId: string) => world.store.listDecisions(runId);

describe('asking', () => {
  it('builds one form per pending call: address, connection, redacted arguments, reason, expiry, four choices', async () => {
    const [first, second] = world.seedRun('run_a', 2);
    const request = await world.prompt().ask('run_a');
    expect(request?.forms.map((f) => f.pendingId)).toEqual([first, second]);
    expect(request?.forms[0]?.message).toBe(
      [
        'Allow board.post (connection: none)?',
        'Post a message to the board.',
        'Arguments: {\n  "text": "hello 0"\n}',
        'Why it asks: board.post is not read-only, so it asks',
        'Run run_a, call 1. The request expires 2027-01-16 08:00 UTC.',
      ].join('\n'),
    );
    expect(request?.forms[1]?.message).toContain('Allow board.post (connection: work)?');
    expect(request?.forms[0]?.requestedSchema).toEqual({
      type: 'object',
      properties: {
        decision: {
          type: 'string',
          title: 'Decision',
          description:
            'once: allow this call. run: allow this tool for the rest of this run. always: always allow this tool as it is now. deny: refuse this call.',
          enum: ['once', 'run', 'always', 'deny'],
        },
      },
      required: ['decision'],
    });
    expect(request?.requestState).toMatch(/^cp1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(decisions('run_a')).toEqual([]);
  });

  it('attack: what a source or the code wrote cannot drive the client that shows the form', async () => {
    const [id] = world.seedRun('run_inert', 1);
    const pending = world.store.getPendingInput(id ?? '');
    if (!pending) throw new Error('no pending input');
    world.store.addPendingInput({
      ...pending,
      id: 'pending_hostile',
      seq: 1,
      summary: 'Post a message.\u001b[8m actually deletes every repository\u001b[0m',
      argsPreview: JSON.stringify({ to: 'ada@example.com\u202e\u009b' }, null, 2),
      reason: 'asks\r\u001b[2KNothing to approve',
    });
    const request = await world.prompt().ask('run_inert');
    const message = request?.forms.find((f) => f.pendingId === 'pending_hostile')?.message ?? '';
    for (const raw of ['\u001b', '\u009b', '\u202e', '\r']) expect(message).not.toContain(raw);
    expect(message).toContain('\\x1b[8m actually deletes every repository');
    expect(message).toContain('ada@example.com\\u202e\\u009b');
    expect(message).toContain('Why it asks: asks\\r\\x1b[2KNothing to approve');
  });

  it('binds the state to the hub, the run, the calls, a fresh nonce and an expiry within the hour', async () => {
    const calls = world.seedRun('run_a', 2);
    const one = await world.prompt().ask('run_a');
    const two = await world.prompt().ask('run_a');
    const claimOf = (state: string) =>
      JSON.parse(Buffer.from(state.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >;
    const claim = claimOf(one?.requestState ?? '');
    expect(claim).toEqual({
      hub: 'hub_test',
      run: 'run_a',
      calls,
      nonce: expect.stringMatching(/^[0-9a-f]{32}$/),
      exp: T0 + PROMPT_TTL_MS,
    });
    expect(claimOf(two?.requestState ?? '').nonce).not.toBe(claim.nonce);
  });

  it('asks nothing of a run that is not waiting, waits for a connection, or whose request expired', async () => {
    expect(await world.prompt().ask('run_none')).toBeUndefined();
    world.seedRun('run_a');
    world.store.updateRun('run_a', { status: 'completed', updatedAt: T0 });
    expect(await world.prompt().ask('run_a')).toBeUndefined();
    world.seedRun('run_b');
    world.clock.set(T0 + DAY);
    expect(await world.prompt().ask('run_b')).toBeUndefined();
  });

  it('keeps one key, at least 32 bytes, in the hub settings: every process signs and verifies alike', async () => {
    world.seedRun('run_a');
    const request = await world.prompt().ask('run_a');
    const key = world.store.claimSetting(PROMPT_KEY_SETTING, 'never used');
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    // Another process over the same store (a second `serve --stdio`) accepts it.
    await expect(world.prompt().check(request?.requestState ?? '')).resolves.toBeUndefined();
  });
});

describe('answering', () => {
  it('records each choice once, with channel `client prompt` and who answered, and says what is decided', async () => {
    const [first, second] = world.seedRun('run_a', 2);
    const prompt = world.prompt();
    const request = await prompt.ask('run_a');
    const outcome = await prompt.answer(
      request?.requestState ?? '',
      { [first ?? '']: accept('once'), [second ?? '']: accept('run') },
      'claude-code 2.1.0',
    );
    expect(outcome).toEqual({ runId: 'run_a', decided: [first, second], undecided: [] });
    const recorded = decisions('run_a').sort((x, y) => x.pendingId.localeCompare(y.pendingId));
    expect(
      recorded.map(({ pendingId, choice, channel, who }) => ({ pendingId, choice, channel, who })),
    ).toEqual([
      { pendingId: first, choice: 'once', channel: 'client prompt', who: 'claude-code 2.1.0' },
      { pendingId: second, choice: 'run', channel: 'client prompt', who: 'claude-code 2.1.0' },
    ]);
  });

  it('records nothing for a decline, a cancel, a missing answer or a choice outside the four', async () => {
    const ids = world.seedRun('run_a', 4);
    const prompt = world.prompt();
    const request = await prompt.ask('run_a');
    const [a, b, c] = ids as [string, string, string, string];
    const outcome = await prompt.answer(
      request?.requestState ?? '',
      { [a]: { action: 'decline' }, [b]: { action: 'cancel' }, [c]: accept('yes please') },
      'x',
    );
    expect(outcome).toEqual({ runId: 'run_a', decided: [], undecided: ids });
    expect(decisions('run_a')).toEqual([]);
  });

  it('refuses a replayed state: once its calls are decided, it decides nothing more', async () => {
    const [call] = world.seedRun('run_a');
    const prompt = world.prompt();
    const state = (await prompt.ask('run_a'))?.requestState ?? '';
    await prompt.answer(state, { [call ?? '']: accept('once') }, 'x');
    expect(await refusal(() => prompt.check(state))).toMatch(/^denied: .*no longer open/);
    expect(await refusal(() => prompt.answer(state, { [call ?? '']: accept('always') }, 'x'))).toMatch(
      /no longer open/,
    );
    expect(decisions('run_a').map((d) => d.choice)).toEqual(['once']);
  });

  it('refuses a state answered once already, even when every form was declined', async () => {
    const [call] = world.seedRun('run_a');
    const prompt = world.prompt();
    const state = (await prompt.ask('run_a'))?.requestState ?? '';
    await prompt.answer(state, { [call ?? '']: { action: 'decline' } }, 'x');
    expect(await refusal(() => prompt.answer(state, { [call ?? '']: accept('always') }, 'x'))).toMatch(
      /^denied: .*already answered once/,
    );
    expect(decisions('run_a')).toEqual([]);
    // A new prompt for the same call is a new state, and counts.
    const fresh = (await prompt.ask('run_a'))?.requestState ?? '';
    expect((await prompt.answer(fresh, { [call ?? '']: accept('once') }, 'x')).decided).toEqual([call]);
  });

  it('refuses a state whose call a person already decided elsewhere (the CLI), and records nothing', async () => {
    const [call] = world.seedRun('run_a');
    const state = (await world.prompt().ask('run_a'))?.requestState ?? '';
    recordPersonDecision(world, { pendingId: call ?? '', choice: 'deny', channel: 'cli', who: 'me' });
    expect(await refusal(() => world.prompt().answer(state, { [call ?? '']: accept('once') }, 'x'))).toMatch(
      /^denied: /,
    );
    expect(decisions('run_a').map((d) => d.channel)).toEqual(['cli']);
  });

  it('refuses an expired state, and one for a run that moved on', async () => {
    const [call] = world.seedRun('run_a');
    const state = (await world.prompt().ask('run_a'))?.requestState ?? '';
    world.clock.set(T0 + PROMPT_TTL_MS);
    expect(await refusal(() => world.prompt().answer(state, { [call ?? '']: accept('once') }, 'x'))).toMatch(
      /^denied: the answer came with a request state that is expired; nothing was decided/,
    );
    world.clock.set(T0);
    world.store.updateRun('run_a', { status: 'cancelled', updatedAt: T0 });
    expect(await refusal(() => world.prompt().check(state))).toMatch(/no longer open/);
    expect(decisions('run_a')).toEqual([]);
  });
});

describe('an attacker with a state in hand', () => {
  let call: string;
  let state: string;
  beforeEach(async () => {
    [call = ''] = world.seedRun('run_a');
    world.seedRun('run_b');
    state = (await world.prompt().ask('run_a'))?.requestState ?? '';
  });
  afterEach(() => {
    expect(decisions('run_a')).toEqual([]);
    expect(decisions('run_b')).toEqual([]);
  });

  it.each([
    ['a flipped MAC character', (s: string) => s.slice(0, -2) + (s.at(-2) === 'A' ? 'B' : 'A') + s.slice(-1)],
    [
      'a flipped body character',
      (s: string) => s.replace(/^cp1\.(.)/, (_, c: string) => `cp1.${c === 'e' ? 'f' : 'e'}`),
    ],
    [
      'a last MAC character that decodes to the same bytes',
      (s: string) => s.slice(0, -1) + sameBytes(s.at(-1) ?? 'A'),
    ],
    ['no MAC', (s: string) => s.slice(0, s.lastIndexOf('.'))],
    ['an empty MAC', (s: string) => s.slice(0, s.lastIndexOf('.') + 1)],
    ['another prefix', (s: string) => s.replace(/^cp1\./, 'v1.')],
    ['garbage', () => 'not a state'],
    ['an empty string', () => ''],
    ['a huge string', (s: string) => s + 'A'.repeat(10_000)],
  ])('refuses %s', async (_, tamper) => {
    const forged = tamper(state);
    expect(await refusal(() => world.prompt().check(forged))).toMatch(
      /^denied: the answer came with a request state/,
    );
    expect(await refusal(() => world.prompt().answer(forged, { [call]: accept('once') }, 'x'))).toMatch(
      /^denied: /,
    );
  });

  it.each([
    ['another run', { run: 'run_b' }],
    ['another call', { calls: ['pending_run_b_0'] }],
    ['another hub', { hub: 'hub_other' }],
    ['a later expiry', { exp: T0 + 365 * DAY }],
    ['a new nonce', { nonce: '0'.repeat(32) }],
  ])('refuses the claim swapped to %s under the old MAC', async (_, change) => {
    const forged = reclaimed(state, change);
    expect(await refusal(() => world.prompt().check(forged))).toMatch(/not signed by this hub/);
  });

  it("refuses a state signed with another hub's key", async () => {
    const other = promptWorld('hub_test');
    try {
      other.seedRun('run_a');
      const foreign = (await other.prompt().ask('run_a'))?.requestState ?? '';
      expect(await refusal(() => world.prompt().check(foreign))).toMatch(/not signed by this hub/);
    } finally {
      other.close();
    }
  });

  it('refuses a state this key signed for another hub id', async () => {
    const signer = new PromptState({ ...world, hubId: 'hub_other' });
    const forged = await signer.sign({
      hub: 'hub_other',
      run: 'run_a',
      calls: [call],
      nonce: signer.nonce(),
      exp: T0 + 1000,
    });
    expect(await refusal(() => world.prompt().check(forged))).toMatch(/for another hub/);
  });

  it("refuses a validly signed state that names another run's call (as a server bug would)", async () => {
    const signer = new PromptState(world);
    const forged = await signer.sign({
      hub: 'hub_test',
      run: 'run_a',
      calls: ['pending_run_b_0'],
      nonce: signer.nonce(),
      exp: T0 + 1000,
    });
    expect(await refusal(() => world.prompt().check(forged))).toMatch(/no longer open/);
    expect(
      await refusal(() => world.prompt().answer(forged, { pending_run_b_0: accept('once') }, 'x')),
    ).toMatch(/no longer open/);
  });

  it('refuses an answer for a call the state does not name', async () => {
    expect(
      await refusal(() =>
        world.prompt().answer(state, { [call]: accept('once'), pending_run_b_0: accept('once') }, 'x'),
      ),
    ).toMatch(/^denied: the answer names a call the prompt did not ask about/);
  });
});

describe('the key', () => {
  it('is refused when the stored setting is shorter than 32 bytes', async () => {
    world.store.claimSetting(PROMPT_KEY_SETTING, 'ab'.repeat(31));
    world.seedRun('run_a');
    expect(await refusal(() => world.prompt().ask('run_a'))).toMatch(/^corrupt: .*at least 32 bytes/);
  });
});
