/**
 * The gate every guest tool call passes, in order (design: "A run, end to end", step 5):
 *
 * 1. The journal at this seq. Settled: replay the recorded outcome, after checking the address
 *    and argument digest (a different path ends the run with `divergence`). Started but never
 *    settled: in doubt, never sent again; the guest gets `outcome_unknown`.
 *    A call not yet journaled is decided on the tool as its server lists it now: an attempt's
 *    first call to an MCP source lists the source's tools first (contract-recheck.ts).
 * 2. `maxCalls` across all attempts.
 * 3. A person's decision on this very call (`once`, `run`, `always`, `deny`), or a `run`
 *    decision earlier in the run for the same tool.
 * 4. Policy: deny → `denied` (nothing upstream, no secret resolved); ask → a pending input and
 *    the attempt ends; allow → the journal records the start, the call goes upstream (scrubbed
 *    by the hub), the journal records the outcome (a large value as a handle: result-handles.ts;
 *    an outcome the guest gets as it is is recorded by the caller, `GateAnswer.record`).
 * 5. An allowed call on a connection that signs in with OAuth first has the connection made ready
 *    (its token refreshed when due) before the start is committed. A sign-in that no longer works
 *    ends the attempt with a pending input of kind `connection` and journals nothing: the call
 *    was never sent, and the run resumed after the person signs in again makes it.
 *
 * Denials and refusals are journaled too, so a resumed attempt replays the same answers at the
 * same seqs. No state lives here between calls: everything is read from and written to the store.
 * Steps 2 to 4 run in one store transaction that ends with the journal's start (or the refusal,
 * or the pending input); on an OAuth connection they run once more, in a transaction of their
 * own, after the connection is ready, so what lets the call start is what is in force then. The
 * start is committed before the call goes upstream, and the outcome is appended once it settles:
 * a large value's handle here, any other outcome by the caller as its answer goes to the guest
 * (runs.ts), before the attempt does anything else.
 *
 * A refusal's message never names the call's address: the guest's ToolError carries it as
 * `address`, and one left uncaught is reported once as `ToolError: <address>: <message>`
 * (engine/sandbox/guest-report.ts).
 */
import { parseToolAddress } from '../address.ts';
import { awaitConnection, type Prepare, signInWaits } from '../approvals/connection-wait.ts';
import { type CallShape, type Decided, personRuling } from '../approvals/decision-cover.ts';
import { ensurePending } from '../approvals/pending-call.ts';
import { nestingDepth } from '../canonical-json.ts';
import type { Credentials } from '../connectors/connector.ts';
import type { Connection } from '../contracts/connections.ts';
import type { ToolErrorCode } from '../contracts/error-codes.ts';
import type { JsonValue } from '../contracts/names.ts';
import type { CallOutcome, JournalEntry, Run } from '../contracts/runs.ts';
import type { ManifestTool, Source } from '../contracts/sources.ts';
import { HubError, isHubError } from '../errors.ts';
import type { RunLimits } from '../limits.ts';
import { evaluatePolicy, type PolicyVerdict } from '../policy/evaluate.ts';
import type { Clock, HubStore, JournalStart, Random } from '../ports.ts';
import type { SecretScrubbing } from '../secrets/hub-secrets.ts';
import { callArgsDigest } from './args-digest.ts';
import type { EndingWitness } from './attempt-ending.ts';
import { settleWithHandles } from './result-handles.ts';

/** One call as the sandbox's bridge hands it over. */
export interface GuestCall {
  seq: number;
  address: string;
  args: { [key: string]: JsonValue };
  connection?: string | undefined;
}

/**
 * What goes back into the guest, or the end of the attempt and why (attempt-ending.ts): a call
 * waits for a person, the code took another path, or this attempt no longer owns its run
 * (cancelled, or another attempt holds it), and nothing more is sent.
 */
export type GateAnswer =
  | {
      kind: 'outcome';
      outcome: CallOutcome;
      /** The outcome comes from the journal, recorded when the call first ran. */
      replayed?: true;
      /**
       * Records the outcome of the call just made in the journal, left to the caller: it must run
       * before the attempt does anything else (reads its next call, ends), and may run once the
       * answer is on its way to the guest. Absent when there is nothing to record (a replay, a
       * refusal journaled with its start) or it is recorded already (a large value's handle).
       */
      record?: () => void;
    }
  | { kind: 'end'; ending: EndingWitness };

/**
 * Calls one tool upstream, scrubbed (`Upstream.callTool`); `tool` is the one the gate let through.
 * Throws only when the request never left the hub; once it is sent, every ending (an answer, an
 * error, a timeout) comes back as the outcome.
 */
export type UpstreamCall = (
  address: string,
  args: { [key: string]: JsonValue },
  options: {
    connection?: string | undefined;
    timeoutMs: number;
    tool?: ManifestTool;
    /** The tool's source and the connection as the start's transaction read them. */
    stored?: { source: Source; connection: Connection | undefined };
    /** The connection's credentials as `ready` resolved them: nothing is refreshed after the start. */
    credentials?: Credentials | undefined;
  },
) => Promise<CallOutcome>;

export interface GateDeps {
  store: HubStore;
  clock: Clock;
  random: Random;
  upstream: UpstreamCall;
  limits: RunLimits;
  /** Every secret the hub holds: scrubbed from what the gate stores itself (previews, errors). */
  scrubbing: SecretScrubbing;
  /**
   * Makes an OAuth connection ready before a call on it starts (its token refreshed when due);
   * throws SignInNeeded when a person must sign in again. The credentials it resolves are the
   * ones the call is sent with. Absent: nothing to make ready.
   */
  ready?: ((namespace: string, connection: string) => Promise<Credentials>) | undefined;
  /**
   * Brings a source's stored tools up to what its server lists now, once per run attempt
   * (`<runId>:<attempt>`) and source (engine/sources/contract-recheck.ts), before a call not yet
   * journaled is decided. Absent: the store is taken as it is.
   */
  recheck?: ((namespace: string, attempt: string) => Promise<void>) | undefined;
  /**
   * The namespaces this attempt's recheck has listed already (runs.ts makes one set per
   * attempt): a call to one of them has nothing to wait for, so the journal is not read first
   * to decide whether it must wait. Absent: the journal is read before every call.
   */
  listed?: Set<string> | undefined;
}

const toolError = (code: ToolErrorCode, message: string, retryable = false, hint?: string): CallOutcome => ({
  ok: false,
  error: { code, message, retryable, ...(hint ? { hint } : {}) },
  ms: 0,
});

/** Arguments nested deeper than this are refused before anything reads them recursively. */
export const MAX_ARGS_DEPTH = 256;

/**
 * Passes one guest call through the gate. A store conflict on the way (another process wrote
 * this run's journal at this seq first) means another attempt holds the run: the attempt ends
 * `busy`.
 */
export async function gateCall(deps: GateDeps, run: Run, call: GuestCall): Promise<GateAnswer> {
  try {
    return await gate(deps, run, call);
  } catch (error) {
    if (isHubError(error, 'conflict')) return { kind: 'end', ending: { kind: 'busy' } };
    throw error;
  }
}

async function gate(deps: GateDeps, run: Run, call: GuestCall): Promise<GateAnswer> {
  const { store } = deps;
  if (nestingDepth(call.args, MAX_ARGS_DEPTH) > MAX_ARGS_DEPTH) {
    return {
      kind: 'outcome',
      outcome: toolError('invalid_input', `the arguments nest deeper than ${MAX_ARGS_DEPTH} levels`),
    };
  }
  const digest = await callArgsDigest(call.args);
  // Decided on the tool as its server declares it now: a contract changed upstream asks (I3). A
  // listing that fails leaves the store as it was; the call meets the same server next.
  const namespace = parseToolAddress(call.address)?.namespace;
  if (deps.recheck && namespace && !deps.listed?.has(namespace) && !store.getJournalEntry(run.id, call.seq)) {
    await deps.recheck(namespace, `${run.id}:${run.attempts}`).catch(() => undefined);
    // Listed (or failed to list) for this attempt: a listing is not tried twice in one attempt.
    deps.listed?.add(namespace);
  }
  // One transaction from the journal lookup to the journal's start: the count, the person's
  // decisions and the policy that let the call through are the ones in force when it starts.
  const nextStep = (prepared: boolean) =>
    store.atomically((): GateAnswer | Send | Prepare => {
      // Only the attempt that owns the run sends: a cancel, or another process taking the run
      // over, stops this one at its next call.
      const current = store.getRunState(run.id);
      if (current?.status !== 'running' || current.attempts !== run.attempts) {
        return (current?.status ?? 'cancelled') === 'cancelled'
          ? {
              kind: 'end',
              ending: { kind: 'cancelled', message: `run ${run.id} was cancelled; no more calls are made` },
            }
          : { kind: 'end', ending: { kind: 'busy' } };
      }
      const entry = store.getJournalEntry(run.id, call.seq);
      return entry ? replay(store, call, digest, entry) : admit(deps, run, call, digest, prepared);
    });
  let step = nextStep(false);
  let credentials: Credentials | undefined;
  if (step.kind === 'prepare') {
    const prepare = step;
    // An OAuth connection's token is refreshed before the start is committed: a sign-in that no
    // longer works stops the call unsent, waiting for a person, and the resumed run makes it.
    const ready = await signInWaits(deps, call, prepare.connection);
    if (ready.kind === 'waits') {
      const ending = store.atomically(() => awaitConnection(deps, run, call, prepare, ready.reason));
      return { kind: 'end', ending: { kind: ending } };
    }
    credentials = ready.credentials;
    step = nextStep(true);
  }
  if (step.kind === 'prepare') return { kind: 'end', ending: { kind: 'busy' } };
  if (step.kind !== 'send') return step;

  // The start is committed: from here the call is sent at most once, whatever happens.
  let outcome: CallOutcome;
  try {
    outcome = await deps.upstream(call.address, call.args, {
      connection: step.connection ?? undefined,
      timeoutMs: deps.limits.upstreamTimeoutMs,
      tool: step.tool,
      ...(step.stored ? { stored: step.stored } : {}),
      // Resolved before the start was recorded, on the connection the start names.
      ...(credentials && step.connection !== null ? { credentials } : {}),
    });
  } catch (error) {
    // The upstream throws only before the request leaves the hub (a missing secret, a source
    // gone): whatever happens once it is sent comes back as an outcome (call-outcome.ts).
    const message = error instanceof HubError ? error.message : 'the call failed inside the hub';
    outcome = toolError(
      'upstream_unavailable',
      `${deps.scrubbing.scrubber.text(message)} (the call was not sent)`,
      true,
    );
  }
  // A large value is kept as a blob of the run and the guest gets a handle (result-handles.ts).
  return { kind: 'outcome', ...settleWithHandles(deps, run, call, outcome) };
}

/**
 * The journal's start is recorded; the call goes upstream to this tool on this connection, with
 * its source and connection record as the same transaction read them.
 */
interface Send {
  kind: 'send';
  tool: ManifestTool;
  connection: string | null;
  stored?: { source: Source; connection: Connection | undefined };
}

/** A call the journal already holds: its recorded outcome, in doubt, or a divergence. */
function replay(store: HubStore, call: GuestCall, digest: string, entry: JournalEntry): GateAnswer {
  if (entry.address !== call.address || entry.argsDigest !== digest) {
    return {
      kind: 'end',
      ending: {
        kind: 'divergence',
        message:
          `call ${call.seq} was ${entry.address} with other arguments when this run first ran, ` +
          `but now it is ${call.address}${entry.address === call.address ? ' with different arguments' : ''}. ` +
          'The code took another path on resume; run it again as a new execute.',
      },
    };
  }
  if (entry.outcome) return { kind: 'outcome', outcome: entry.outcome, replayed: true };
  const idempotent = store.getTool(call.address)?.annotations?.idempotentHint === true;
  return {
    kind: 'outcome',
    outcome: toolError(
      'outcome_unknown',
      `the hub stopped while ${call.address} was in flight; it may or may not have happened, and it is never sent twice`,
      idempotent,
      idempotent
        ? 'the tool says it is idempotent: calling it again is safe'
        : 'check upstream before trying again',
    ),
  };
}

/**
 * A call not yet journaled, inside gateCall's transaction: maxCalls, the tool and its
 * connection, then a person's decision or policy. Deny and ask are recorded here and answered;
 * allow records the start and says where to send the call.
 */
function admit(
  deps: GateDeps,
  run: Run,
  call: GuestCall,
  digest: string,
  prepared: boolean,
): GateAnswer | Send | Prepare {
  const { store } = deps;
  if (store.countJournal(run.id) >= deps.limits.maxCalls) {
    return {
      kind: 'outcome',
      outcome: toolError('limit', `this run reached its limit of ${deps.limits.maxCalls} tool calls`),
    };
  }

  const tool = store.getTool(call.address);
  if (!tool) {
    return {
      kind: 'outcome',
      outcome: toolError('not_found', 'no such tool; find tools with hub.search()'),
    };
  }
  const namespace = parseToolAddress(call.address)?.namespace ?? '';
  const connections = store.listConnections(namespace);
  const connection = call.connection ?? connections.find((c) => c.isDefault)?.name ?? null;
  if (call.connection !== undefined && !connections.some((c) => c.name === call.connection)) {
    const known = connections.map((c) => c.name).join(', ') || 'none';
    return {
      kind: 'outcome',
      outcome: toolError(
        'not_found',
        `"${namespace}" has no connection "${call.connection}" (it has: ${known})`,
      ),
    };
  }

  const shape: CallShape = {
    seq: call.seq,
    address: call.address,
    connection,
    argsDigest: digest,
    contract: tool.contract,
  };
  const decision = personOrPolicy(store, run, shape, tool);
  if (decision.effect === 'deny') {
    const code = decision.by === 'person' ? 'approval_denied' : 'denied';
    return journalRefusal(deps, run, call, digest, connection, decision, toolError(code, decision.reason));
  }
  if (decision.effect === 'ask') {
    const reason = decision.changed ? `${decision.reason}; ${decision.changed}` : decision.reason;
    ensurePending(deps, run, call, shape, tool, reason);
    return { kind: 'end', ending: { kind: 'suspend' } };
  }
  const signsIn = connections
    .find((c) => c.name === connection)
    ?.secrets.some((ref) => ref.delivery.kind === 'oauth');
  if (!prepared && deps.ready && connection !== null && signsIn) {
    return { kind: 'prepare', tool, connection, shape };
  }
  store.appendJournal(journalStart(run, call, digest, connection, decision, deps.clock.now()));
  const source = store.getSource(namespace);
  const record = connections.find((c) => c.name === connection);
  return { kind: 'send', tool, connection, ...(source ? { stored: { source, connection: record } } : {}) };
}

type Effective = PolicyVerdict & { by: 'policy' | 'person'; decisionId?: string; changed?: string };

/**
 * A policy `deny` first (a person's decision never lifts one); then a person's decision covering
 * this very call (decision-cover.ts); then policy. A call that differs from one a person decided
 * at this seq falls to policy, and asks again saying so.
 */
function personOrPolicy(store: HubStore, run: Run, call: CallShape, tool: ManifestTool): Effective {
  const policy = policyFor(store, call, tool);
  if (policy.effect === 'deny') return policy;
  const decisions = store.listDecisions(run.id);
  if (decisions.length > 0) {
    const pendings = new Map(store.listPendingInputs(run.id).map((p) => [p.id, p]));
    const decided: Decided[] = [];
    for (const decision of decisions) {
      const pending = pendings.get(decision.pendingId);
      if (pending) decided.push({ pending, decision });
    }
    const ruling = personRuling(decided, call);
    if (ruling.kind !== 'none') {
      return {
        effect: ruling.kind,
        by: 'person',
        reason: ruling.reason,
        decisionId: ruling.decision.id,
      };
    }
    if (ruling.changed !== undefined) return { ...policy, changed: ruling.changed };
  }
  return policy;
}

function policyFor(store: HubStore, call: CallShape, tool: ManifestTool): Effective {
  const policy = evaluatePolicy(
    { address: call.address, connection: call.connection },
    tool,
    store.listPolicyRules(call.address),
    store.getReview(tool.address),
  );
  return { ...policy, by: 'policy' };
}

function journalRefusal(
  deps: GateDeps,
  run: Run,
  call: GuestCall,
  digest: string,
  connection: string | null,
  decision: Effective,
  outcome: CallOutcome,
): GateAnswer {
  // Inside admit's transaction: the start and its outcome land together.
  const now = deps.clock.now();
  deps.store.appendJournal(journalStart(run, call, digest, connection, decision, now));
  deps.store.settleJournal(run.id, call.seq, outcome, now);
  return { kind: 'outcome', outcome };
}

/** The journal entry for a call as it starts, carrying what decided it. */
function journalStart(
  run: Run,
  call: GuestCall,
  digest: string,
  connection: string | null,
  decision: Effective,
  now: number,
): JournalStart {
  return {
    runId: run.id,
    seq: call.seq,
    address: call.address,
    connection,
    argsDigest: digest,
    decision: {
      effect: decision.effect,
      by: decision.by,
      reason: decision.reason,
      ...(decision.decisionId ? { decisionId: decision.decisionId } : {}),
    },
    startedAt: now,
  };
}
