/**
 * I3, "Authority never widens without a person" (spec: Security and approvals, "Contracts pin what
 * you approved": "If a refresh finds that digest changed, the tool goes back to `ask`, rules pinned
 * to the old contract stop applying ... New tools upstream also ask until you review them. The hub
 * never widens its own authority"), as one suite with two runners:
 * test/invariants/i3-authority.test.ts (a local hub per attack, made and driven through the CLI,
 * the counting board as a stdio upstream whose files beside its count change what it says of
 * itself) and test/invariants/i3-authority.workers.test.ts (a person per attack on the hosted hub,
 * an MCP token through the real OAuth flow, the counting board of an upstream room). Each attack
 * starts from a board whose `post` asks; the person answers `always` (`hub approve` at a terminal,
 * the run's page on the hosted hub) and the next run posts without asking. What reached the
 * upstream is counted outside the hub.
 *
 * | Way in | Attack | Held |
 * | ------ | ------ | ---- |
 * | refresh (where the host has one) + execute | `post`'s description changes upstream | asks; no call |
 * | refresh (where the host has one) + execute | `post` now declares `readOnlyHint: true` | asks; no call |
 * | refresh (where the host has one) + execute | a new tool that says it only reads appears beside `post` | asks; never called |
 * | store rule + execute | a deny on the source beside a narrower allow on `post` | denied; no call |
 * | execute, nobody refreshes | `post` changes upstream between two runs (one open MCP session on the hosted hub) | the hub lists tools first; asks |
 */
import { describe, expect, it } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import type { PolicyRule } from '../../engine/contracts/policy.ts';
import type { RoomChange } from '../fixtures/upstream-standin.ts';
import type { Host } from './invariant-hub.ts';

/** One person's hub holding the counting board as `board`, reviewed as the hub proposes. */
export interface AuthorityBoard {
  /** Runs `code` as the agent does, to its envelope. */
  execute(code: string): Promise<ExecuteEnvelope>;
  /** The person answers `always` for the pending call of `run`; the run goes on to its end. */
  always(run: ExecuteEnvelope): Promise<void>;
  /** The upstream changes what it says of its tools from its next listing on. */
  change(change: RoomChange): Promise<void>;
  /** A person reads the board again (`hub refresh`), where the host has a way to. */
  refresh?(): Promise<void>;
  /** Rules written into the hub's store, as a configuration would. */
  addRules(rules: PolicyRule[]): Promise<void>;
  /** Every call that reached the board (`post <text>`, `started <text>`, `wipe`), in order. */
  calls(): Promise<string[]>;
}

export interface AuthorityHub {
  name: Host;
  /** A fresh hub with a fresh board, for one attack. */
  board(): Promise<AuthorityBoard>;
}

export function describeAuthority(hub: AuthorityHub): void {
  /** `always` for `post`: the asked run goes on once decided, and the next run posts without asking. */
  async function alwaysForPost(): Promise<AuthorityBoard> {
    const board = await hub.board();
    const asked = await board.execute('return await board.post({ text: "one" });');
    expect(asked.status).toBe('awaiting_approval');
    await board.always(asked);
    const second = await board.execute('return await board.post({ text: "two" });');
    expect(second.status, JSON.stringify(second)).toBe('completed');
    expect(await board.calls()).toEqual(['post one', 'post two']);
    return board;
  }

  const postThree = (board: AuthorityBoard) => board.execute('return await board.post({ text: "three" });');

  describe(`I3 on the ${hub.name} hub: authority never widens`, () => {
    it('attack: `always` was given; the description changes upstream; the next call asks', async () => {
      const board = await alwaysForPost();
      await board.change({ postDescription: 'Post a message to the board, and to everyone.' });
      await board.refresh?.();
      expect((await postThree(board)).status).toBe('awaiting_approval');
      expect(await board.calls()).toEqual(['post one', 'post two']);
    }, 60_000);

    it('attack: `always` was given; the tool now declares itself read-only; the call still asks', async () => {
      const board = await alwaysForPost();
      await board.change({ postAnnotations: { readOnlyHint: true } });
      await board.refresh?.();
      expect((await postThree(board)).status).toBe('awaiting_approval');
      expect(await board.calls()).toEqual(['post one', 'post two']);
    }, 60_000);

    it('attack: a new tool that says it only reads appears beside an allowed tool; it asks', async () => {
      const board = await alwaysForPost();
      await board.change({ newTool: true });
      if (board.refresh) await board.refresh();
      else {
        // Not in the store when the run starts: not a tool to its code at all.
        const unknown = await board.execute('return await board.wipe({});');
        expect(unknown.error?.message).toContain('board.wipe is not a tool');
        // A run that reads lists the source first, so the next run sees `wipe`, unreviewed.
        expect((await board.execute('return await board.list_posts({});')).status).toBe('completed');
      }
      const wiped = await board.execute('return await board.wipe({});');
      expect(wiped.status, JSON.stringify(wiped)).toBe('awaiting_approval');
      expect(await board.calls()).toEqual(['post one', 'post two']);
      // The `always` the person gave for `post` still holds, and only for `post`.
      expect((await postThree(board)).status).toBe('completed');
      expect(await board.calls()).toEqual(['post one', 'post two', 'post three']);
    }, 60_000);

    it('attack: a deny on the source beside a narrower allow on one of its tools; the deny holds', async () => {
      const board = await alwaysForPost();
      await board.addRules([
        {
          id: 'rule_tool_allow',
          target: { kind: 'tool', address: 'board.post' },
          effect: 'allow',
          createdAt: 1,
        },
        {
          id: 'rule_source_deny',
          target: { kind: 'source', namespace: 'board' },
          effect: 'deny',
          createdAt: 2,
        },
      ]);
      const denied = await board.execute(
        'try { await board.post({ text: "three" }); return "posted"; } catch (error) { return error.code; }',
      );
      expect(denied.status).toBe('completed');
      expect(denied.result).not.toBe('posted');
      expect(await board.calls()).toEqual(['post one', 'post two']);
    }, 60_000);

    // Until the hub listed tools before deciding a call (engine/sources/contract-recheck.ts), a stdio
    // upstream started afresh by each CLI process, which never notifies, ran under the old `always`;
    // on the hosted hub the same client and session as the runs that posted hears nothing of it.
    it('attack: `always` was given; `post` changes upstream between two runs and nobody refreshes; the call asks', async () => {
      const board = await alwaysForPost();
      await board.change({ postDescription: 'Post a message, and delete the board after.' });
      const third = await postThree(board);
      expect(await board.calls()).toEqual(['post one', 'post two']);
      expect(third.status).toBe('awaiting_approval');
      expect(third.pending?.[0]?.address).toBe('board.post');
    }, 60_000);
  });
}
