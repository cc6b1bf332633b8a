/**
 * The bridge a guest's dynamic Worker calls out through: a WorkerEntrypoint of the hub's own
 * Worker, handed to the guest as `env.BRIDGE` via `ctx.exports.SandboxBridge({ props })`. The
 * props (set by the host, never by the guest) name the hub, run and attempt, carry a random key
 * to the attempt's live state, and say where that state lives (`route`):
 *
 * - `isolate`: in this isolate's registry (openBridge), answered in the bridge's own request
 *   context. Enough for a host whose handler does no I/O bound to another request.
 * - `hub`: in the hub's Durable Object. workerd refuses I/O on another request's objects, so a
 *   handler that touches the HubObject's storage must run in the HubObject's context: the call
 *   is forwarded to the object named by `props.hub`, whose `sandboxBridge` method (BridgeRouter)
 *   answers it with `answerBridgeCall` from the registry there.
 *
 * Fails closed: a call for an attempt that is over, or unknown where it is routed, is answered
 * "ended" and reaches no host. Everything the guest sends passes the attempt's HostBridge.
 */
import { WorkerEntrypoint } from 'cloudflare:workers';
import { ENDED_ANSWER, type HostBridge } from '../engine/sandbox/host-bridge.ts';
import type { LogSink } from '../engine/sandbox/log-sink.ts';
import type { HubEnv } from './hub-env.ts';

/** What the host puts in the bridge's props. */
export interface BridgeProps {
  hub: string;
  run: string;
  attempt: number;
  /** Random, per attempt: the registry key of its live state. */
  key: string;
  /** Where the live state is: this isolate, or the hub's Durable Object. */
  route: 'isolate' | 'hub';
}

/** What the bridge needs of a running attempt. */
export interface LiveAttempt {
  bridge: HostBridge;
  /** The attempt's log budget: console lines ride along with each call. */
  logs: LogSink;
}

/** What a Durable Object that runs attempts with route `hub` exposes over RPC. */
export interface BridgeRouter {
  sandboxBridge(key: string, method: 'call' | 'lookup', args: unknown[]): Promise<string>;
}

const live = new Map<string, LiveAttempt>();

/** Registers an attempt under its key until `closeBridge`. */
export function openBridge(key: string, attempt: LiveAttempt): void {
  live.set(key, attempt);
}

export function closeBridge(key: string): void {
  live.delete(key);
}

/**
 * Answers a guest's call or lookup for the attempt registered under `key` in this isolate:
 * `call(address, argsJson, connection, logs)`, `logs` being the console lines written since the
 * last call (so a suspended attempt keeps them); `lookup(requestJson)`. Answers JSON text.
 */
export async function answerBridgeCall(
  key: string,
  method: 'call' | 'lookup',
  args: unknown[],
): Promise<string> {
  const attempt = live.get(key);
  if (!attempt) return ENDED_ANSWER;
  if (method === 'lookup') return attempt.bridge.lookup(args[0]);
  const logs = args[3];
  if (Array.isArray(logs)) for (const line of logs.slice(0, 10_000)) attempt.logs.add(line);
  return attempt.bridge.call(args[0], args[1], args[2]);
}

export class SandboxBridge extends WorkerEntrypoint<HubEnv, BridgeProps> {
  /** A guest tool call: `(address, argsJson, connection, logs)`; answers JSON text. */
  async call(address: unknown, argsJson: unknown, connection: unknown, logs?: unknown): Promise<string> {
    return this.#route('call', [address, argsJson, connection, logs]);
  }

  /** `hub.search` or `hub.describe`: `(requestJson)`; answers JSON text. */
  async lookup(requestJson: unknown): Promise<string> {
    return this.#route('lookup', [requestJson]);
  }

  #route(method: 'call' | 'lookup', args: unknown[]): Promise<string> {
    const { route, hub, key } = this.ctx.props;
    if (route !== 'hub') return answerBridgeCall(key, method, args);
    const hubs = this.env.HUB;
    const stub = hubs.get(hubs.idFromName(hub)) as unknown as BridgeRouter;
    return stub.sandboxBridge(key, method, args);
  }
}
