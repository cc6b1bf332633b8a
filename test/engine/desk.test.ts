/**
 * The desk (engine/desk/): what a person-facing host asks the engine instead of reading the store.
 * A waiting run's open inputs shrink as a person decides them; an unknown source or run is the one
 * not-found error, with what to do next; `hub call`'s guest code comes from the address module.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openInputs } from '../../engine/approvals/open-inputs.ts';
import { createDesk, type Desk } from '../../engine/desk/index.ts';
import { localWording } from '../../local/wording.ts';
import { addTestSources } from '../conformance/runs.suite.ts';
import { refusalOf } from '../hub-error.ts';
import { type PromptWorld, promptWorld } from './prompt-fixture.ts';

let world: PromptWorld;
let desk: Desk;
beforeEach(() => {
  world = promptWorld();
  const { store, clock, random } = world;
  desk = createDesk({
    store,
    clock,
    random,
    wording: localWording,
    toReview: (namespace) => (namespace === 'board' ? 2 : 0),
  });
});
afterEach(() => world.close());

describe('the run desk', () => {
  it("gives a waiting run's open inputs, one fewer for each decision recorded through it", () => {
    const [first, second] = world.seedRun('run_a', 2);
    expect(desk.runs.openInputs('run_a').map((p) => p.id)).toEqual([first, second]);
    const decision = desk.runs.decide({ pendingId: first ?? '', choice: 'once', channel: 'cli', who: 'ana' });
    expect(decision).toMatchObject({ runId: 'run_a', choice: 'once', channel: 'cli', who: 'ana' });
    expect(desk.runs.openInputs('run_a').map((p) => p.id)).toEqual([second]);
    expect(openInputs(world.store, 'run_a').map((p) => p.id)).toEqual([second]);
    expect(desk.runs.list().map((r) => r.id)).toEqual(['run_a']);
    expect(desk.runs.list('completed')).toEqual([]);
    expect(desk.runs.journal('run_a')).toEqual([]);
  });

  it("gives a run's decided calls, each with its decision, in the order they asked", () => {
    const [first, second] = world.seedRun('run_a', 2);
    expect(desk.runs.decided('run_a')).toEqual([]);
    desk.runs.decide({ pendingId: second ?? '', choice: 'deny', channel: 'cli', who: 'ana' });
    desk.runs.decide({ pendingId: first ?? '', choice: 'once', channel: 'approval page', who: 'bo' });
    expect(
      desk.runs.decided('run_a').map(({ input, decision }) => [input.id, decision.choice, decision.channel]),
    ).toEqual([
      [first, 'once', 'approval page'],
      [second, 'deny', 'cli'],
    ]);
    expect(refusalOf(() => desk.runs.decided('run_nope'))).toBe(
      'not_found: no run run_nope; list runs with `capabilities hub runs`',
    );
  });

  it("gives every call that asked, answered or not, the newest runs up to a limit, and a run's call count", () => {
    const [first, second] = world.seedRun('run_a', 2);
    world.seedRun('run_b', 0); // created at the same moment: the later id is the newer run
    desk.runs.decide({ pendingId: second ?? '', choice: 'deny', channel: 'dashboard', who: 'ana' });
    expect(
      desk.runs.asks('run_a').map(({ input, decision }) => [input.id, decision?.choice ?? 'open']),
    ).toEqual([
      [first, 'open'],
      [second, 'deny'],
    ]);
    expect(desk.runs.list(undefined, 1).map((r) => r.id)).toEqual(['run_b']);
    expect(desk.runs.list('awaiting_input', 5).map((r) => r.id)).toEqual(['run_b', 'run_a']);
    world.store.appendJournal({
      runId: 'run_a',
      seq: 0,
      address: 'board.post',
      connection: null,
      argsDigest: 'ab'.repeat(32),
      decision: { effect: 'allow', by: 'policy', reason: 'read-only' },
      startedAt: world.clock.now(),
    });
    expect([desk.runs.countCalls('run_a'), desk.runs.countCalls('run_b')]).toEqual([1, 0]);
    const unknown = 'not_found: no run run_nope; list runs with `capabilities hub runs`';
    expect(refusalOf(() => desk.runs.asks('run_nope'))).toBe(unknown);
    expect(refusalOf(() => desk.runs.countCalls('run_nope'))).toBe(unknown);
  });

  it('says a run that is not waiting has nothing to decide, and an unknown run how to list them', () => {
    world.seedRun('run_b');
    world.store.updateRun('run_b', { status: 'cancelled', updatedAt: world.clock.now() });
    expect(refusalOf(() => desk.runs.openInputs('run_b'))).toBe(
      'conflict: run run_b is cancelled and has no call waiting for a decision',
    );
    const unknown = 'not_found: no run run_nope; list runs with `capabilities hub runs`';
    expect(refusalOf(() => desk.runs.openInputs('run_nope'))).toBe(unknown);
    expect(refusalOf(() => desk.runs.journal('run_nope'))).toBe(unknown);
    expect(refusalOf(() => desk.runs.get('run_nope'))).toBe(unknown);
  });
});

describe('the source desk', () => {
  it('lists every source with its tools, connections and what waits for review', async () => {
    await addTestSources(world.store);
    expect(
      desk.sources.list().map(({ source, tools, connections, toReview }) => ({
        namespace: source.namespace,
        tools,
        connections: connections.length,
        toReview,
      })),
    ).toEqual([
      { namespace: 'board', tools: 2, connections: 0, toReview: 2 },
      { namespace: 'memory', tools: 1, connections: 0, toReview: 0 },
    ]);
    expect(desk.sources.namespaces()).toEqual(['board', 'memory']);
    expect(desk.sources.get('memory').kind).toBe('mcp-http');
    expect(desk.sources.connections('memory')).toEqual([]);
  });

  it('names an unknown source once, the same way everywhere, with how to list them', () => {
    const unknown = 'not_found: no source "nope"; list sources with `capabilities hub list`';
    expect(refusalOf(() => desk.sources.get('nope'))).toBe(unknown);
    expect(refusalOf(() => desk.sources.connections('nope'))).toBe(unknown);
  });
});
