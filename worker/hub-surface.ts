/**
 * The Worker's surface: SurfaceDeps for one profile whose every operation is an RPC call to the
 * hub's HubObject, where the engine and its store live; worker/index.ts serves them with the same
 * MCP-over-HTTP handler as the local hub (engine/surface/http.ts). A HubError thrown in the object
 * comes back as the same HubError here, so the model reads the same errors as on the local hub.
 *
 * The profile's mode (and, in direct mode, its tools) is read once per request before the server
 * is built (`profileSurface`): an MCP server registers its tools when it is made.
 */
import { hostedWording } from '../durable-objects/hosted-wording.ts';
import type { HubObject, ProfileSurface } from '../durable-objects/hub-object.ts';
import { type HubAnswer, unwrapAnswer } from '../engine/hub-answer.ts';
import type { SurfaceDeps } from '../engine/surface/index.ts';

// The stub's RPC types are deep and generic; the answers are plain data of these shapes.
const call = async <T>(answer: Promise<unknown>): Promise<T> => unwrapAnswer((await answer) as HubAnswer<T>);

/** What `profile` serves: its mode and direct tools; a HubError `not_found` for no such profile. */
export function profileSurface(hub: DurableObjectStub<HubObject>, profile: string): Promise<ProfileSurface> {
  return call<ProfileSurface>(hub.profileSurface(profile));
}

/** SurfaceDeps for `profile` whose every operation is answered by the hub's Durable Object. */
export function hubObjectSurface(
  hub: DurableObjectStub<HubObject>,
  version: string,
  profile: string,
  served: ProfileSurface,
): SurfaceDeps {
  const tools = served.tools;
  return {
    version,
    wording: hostedWording,
    search: (input) => call<string>(hub.search(input, profile)),
    describe: (targets) => call<string>(hub.describe([...targets], profile)),
    execute: (code) => call(hub.execute(code, profile)),
    resume: (runId) => call(hub.resume(runId, profile)),
    prompt: {
      ask: (runId) => call(hub.promptAsk(runId)),
      check: (state) => call(hub.promptCheck(state)),
      answer: (state, responses, who) => call(hub.promptAnswer(state, responses, who)),
    },
    ...(served.mode === 'direct' && tools
      ? {
          direct: {
            tools: () => tools,
            call: (address, args) => call(hub.directCall(profile, address, args)),
            result: (runId) => call(hub.runResult(profile, runId)),
          },
        }
      : {}),
    skills: {
      list: () => call(hub.skillList(profile)),
      file: (name, path) => call(hub.skillFile(profile, name, path)),
    },
    log: (message, error) => console.error(message, error instanceof Error ? error.message : error),
  };
}
