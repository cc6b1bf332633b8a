/**
 * Approvals in the client (spec: Approvals over MCP). When `execute` stops for a person, what
 * the client gets depends on what it declared:
 *
 * 1. A client that declared form elicitation gets an MRTR `input_required` result: one form per
 *    pending call (the SDK's `inputRequired.elicit`) and the hub's signed `requestState`. A
 *    2026-07-28 client shows the forms and retries the same call with the answers; for a
 *    2025-era client on a connection that saw `initialize` (stdio), the SDK's legacy shim sends
 *    each form as a real `elicitation/create` and re-enters the tool with the answers, so one
 *    path serves both eras. The retried call hands the state and the answers to the host's
 *    client prompt, which verifies and records them, then resumes the run in the same call. A
 *    resumed run that asks again asks again in the same call; one whose person declined or
 *    cancelled answers `awaiting_approval`, so the model is told a person must decide.
 * 2. Every other client (no elicitation, URL only, a stateless 2025 HTTP request, or a host that
 *    gave no client prompt) gets `awaiting_approval`. When the host has an approval page
 *    (`SurfacePages`) it opens it, and the envelope says only `page: "opened"`; the text names
 *    `capabilities hub approve <runId>` as the fallback: never a URL, never a token.
 *
 * The surface holds no key and records nothing itself: `SurfacePrompt` is injected by the host
 * (engine/runs/client-prompt.ts behind it), and a state the prompt refuses is refused by the
 * SDK's requestState hook before the tool runs, as a JSON-RPC -32602 error.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type InputRequiredResult,
  inputRequired,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ExecuteEnvelope } from '../contracts/envelope.ts';
import type { PromptOutcome, PromptRequest } from '../contracts/prompt.ts';

/** The client prompt as the surface reaches it; the host injects it (SurfaceDeps.prompt). */
export interface SurfacePrompt {
  /** One form per undecided approval of a waiting run and their signed state; undefined when none. */
  ask(runId: string): Promise<PromptRequest | undefined>;
  /** Throws when `state` would be refused now (expired, tampered, another hub's, already used). */
  check(state: string): Promise<void>;
  /** Verifies the state and the person's answers, then records each decision once (`client prompt`). */
  answer(state: string, responses: Record<string, unknown>, who: string): Promise<PromptOutcome>;
}

/**
 * The host's approval page, for a run the client cannot ask about in its own prompt: the local
 * hub opens it in the person's browser (local/pages/). Only whether a page is open comes back;
 * its URL and token stay with the host and the browser (spec: Approvals over MCP).
 */
export interface SurfacePages {
  /** Opens (or finds open) the page for these pending calls of the run; true when one is open. */
  open(runId: string, pendingIds: readonly string[]): Promise<boolean>;
}

/** The first protocol revision of the MRTR era; revisions are ISO dates, so they sort. */
const FIRST_MODERN_REVISION = '2026-07-28';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The capabilities this request's client declared, read where the SDK's own input-request gate
 * reads them: the request's `_meta` envelope on the 2026-07-28 era, `initialize` on a 2025
 * connection (nothing on a stateless 2025 HTTP request, which cannot take server requests).
 */
function declared(server: Server, ctx: ServerContext): unknown {
  const revision = server.getNegotiatedProtocolVersion();
  if (revision !== undefined && revision >= FIRST_MODERN_REVISION) {
    const envelope: Record<string, unknown> = ctx.mcpReq.envelope ?? {};
    return envelope[CLIENT_CAPABILITIES_META_KEY];
  }
  return server.getClientCapabilities();
}

/** True when the client declared form elicitation (a bare `elicitation: {}` means form). */
export function declaresFormElicitation(server: Server, ctx: ServerContext): boolean {
  const capabilities = declared(server, ctx);
  if (!isObject(capabilities) || !isObject(capabilities.elicitation)) return false;
  const { form, url } = capabilities.elicitation;
  return form !== undefined || url === undefined;
}

/** Who answered, as the channel knows them: the client's declared name and version. */
export function clientLabel(server: Server, ctx: ServerContext): string {
  const envelope: Record<string, unknown> = ctx.mcpReq.envelope ?? {};
  const info = envelope[CLIENT_INFO_META_KEY] ?? server.getClientVersion();
  if (!isObject(info) || typeof info.name !== 'string') return 'an MCP client';
  return typeof info.version === 'string' ? `${info.name} ${info.version}` : info.name;
}

/** The `input_required` result for a prompt: each form keyed by its pending call's id. */
export function promptResult(request: PromptRequest): InputRequiredResult {
  return inputRequired({
    inputRequests: Object.fromEntries(
      request.forms.map((form) => [
        form.pendingId,
        inputRequired.elicit({ mode: 'form', message: form.message, requestedSchema: form.requestedSchema }),
      ]),
    ),
    requestState: request.requestState,
  });
}

/** What the execute tool needs to run the approval flow for one call. */
export interface PromptFlow {
  prompt: SurfacePrompt | undefined;
  server: Server;
  ctx: ServerContext;
  resume(runId: string): Promise<ExecuteEnvelope>;
}

/**
 * A retried call: the state and answers go to the client prompt, then the run resumes. Answers
 * `{ envelope, askAgain }`: ask again only when every call the person was asked about was decided
 * (a decline is never asked again in the same call).
 */
export async function answered(
  flow: PromptFlow,
  state: string,
): Promise<{ envelope: ExecuteEnvelope; askAgain: boolean }> {
  if (!flow.prompt) throw new Error('a request state reached a hub that issues none');
  const responses: Record<string, unknown> = flow.ctx.mcpReq.inputResponses ?? {};
  const outcome = await flow.prompt.answer(state, responses, clientLabel(flow.server, flow.ctx));
  const envelope = await flow.resume(outcome.runId);
  return { envelope, askAgain: outcome.undecided.length === 0 };
}

/**
 * The envelope of a run that waits for a person and was not prompted: with `page: "opened"` when
 * the host's page opened for it. A page that fails to open is logged and leaves the envelope as
 * it was (the text still names the CLI).
 */
export async function withPage(
  pages: SurfacePages | undefined,
  envelope: ExecuteEnvelope,
  log: (message: string, error: unknown) => void,
): Promise<ExecuteEnvelope> {
  if (envelope.status !== 'awaiting_approval' || !pages) return envelope;
  const pendingIds = (envelope.pending ?? []).map((p) => p.id);
  try {
    return (await pages.open(envelope.runId, pendingIds)) ? { ...envelope, page: 'opened' } : envelope;
  } catch (error) {
    log('opening the approval page failed', error);
    return envelope;
  }
}

/** The prompt for a run that waits for a person, when this client can show one; else undefined. */
export async function promptFor(
  flow: PromptFlow,
  envelope: ExecuteEnvelope,
): Promise<InputRequiredResult | undefined> {
  if (envelope.status !== 'awaiting_approval' || !flow.prompt) return undefined;
  if (!declaresFormElicitation(flow.server, flow.ctx)) return undefined;
  const request = await flow.prompt.ask(envelope.runId);
  return request ? promptResult(request) : undefined;
}
