/**
 * The Worker's surface: SurfaceDeps whose operations are RPC calls to the hub's HubObject, where
 * the engine and its store live; worker/index.ts serves them with the same MCP-over-HTTP handler
 * as the local hub (engine/surface/http.ts). A HubError thrown in the object comes back as the
 * same HubError here, so the model reads the same errors as on the local hub.
 */
import { hostedWording } from '../durable-objects/hosted-wording.ts';
import type { HubObject } from '../durable-objects/hub-object.ts';
import { type HubAnswer, unwrapAnswer } from '../engine/hub-answer.ts';
import type { SurfaceDeps } from '../engine/surface/index.ts';

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
