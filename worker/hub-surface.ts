/**
 * The Worker's MCP endpoint: agents' stateless `createMcpHandler` (an SDK v2 factory per
 * request, 2025-era clients through the SDK's stateless fallback) serving the one McpServer
 * factory, whose operations are RPC calls to the hub's HubObject, where the engine and its
 * store live. A HubError thrown in the object comes back as the same HubError here, so the
 * model reads the same errors as on the local hub.
 */
import { createMcpHandler } from 'agents/mcp/server';
import { hostedWording } from '../durable-objects/hosted-wording.ts';
import type { HubObject } from '../durable-objects/hub-object.ts';
import { type HubAnswer, unwrapAnswer } from '../engine/hub-answer.ts';
import { createMcpServer, MAX_REQUEST_BYTES, type SurfaceDeps } from '../engine/surface/index.ts';

/** SurfaceDeps whose every operation is answered by the hub's Durable Object. */
export function hubObjectSurface(hub: DurableObjectStub<HubObject>, version: string): SurfaceDeps {
  // The stub's RPC types are deep and generic; the answers are plain data of these shapes.
  const call = async <T>(answer: Promise<unknown>): Promise<T> =>
    unwrapAnswer((await answer) as HubAnswer<T>);
  return {
    version,
    wording: hostedWording,
    search: (input) => call<string>(hub.search(input)),
    describe: (targets) => call<string>(hub.describe([...targets])),
    execute: (code) => call(hub.execute(code)),
    resume: (runId) => call(hub.resume(runId)),
    prompt: {
      ask: (runId) => call(hub.promptAsk(runId)),
      check: (state) => call(hub.promptCheck(state)),
      answer: (state, responses, who) => call(hub.promptAnswer(state, responses, who)),
    },
    log: (message, error) => console.error(message, error instanceof Error ? error.message : error),
  };
}

/** The /mcp handler for one request's stub; the app has checked the token before it runs. */
export function workerMcpHandler(deps: SurfaceDeps): (request: Request) => Promise<Response> {
  const handler = createMcpHandler(() => createMcpServer(deps), {
    route: '/mcp',
    legacy: 'stateless',
    maxRequestBodySize: MAX_REQUEST_BYTES,
    // Browsers are not clients of this endpoint: no CORS headers are added.
    corsOptions: false,
    onerror: (error) => deps.log?.('the MCP endpoint refused or dropped a request', error.message),
  });
  return (request) => handler.fetch(request);
}
