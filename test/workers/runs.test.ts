/**
 * Runs the run contract and the tool-names suite in the HubObject, inside workerd: the object's
 * SQLite store, guest code in Worker Loader isolates, and every guest call routed back into the
 * object (route `hub`).
 */
import { runInDurableObject } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import type { HubEnv } from '../../durable-objects/hub-env.ts';
import type { HubObject } from '../../durable-objects/hub-object.ts';
import type { BridgeProps } from '../../durable-objects/sandbox-bridge.ts';
import { WorkerLoaderSandbox } from '../../durable-objects/worker-loader-sandbox.ts';
import { describeRuns, type RunsHarness } from '../conformance/runs.suite.ts';
import { describeRunAnswers } from '../conformance/runs-answers.suite.ts';
import { describeRunNames } from '../conformance/runs-names.suite.ts';

const { HUB: hubs, LOADER: loader } = env as unknown as HubEnv;
const loopback = exports as unknown as { SandboxBridge: (options: { props: BridgeProps }) => Fetcher };

const harness: RunsHarness = {
  name: 'HubObject and Worker Loader',
  withHost(body) {
    if (!loader) throw new Error('wrangler.toml has no [[worker_loaders]] binding LOADER');
    const name = `runs-${crypto.randomUUID()}`;
    const sandbox = new WorkerLoaderSandbox({
      loader,
      bridge: (props) => loopback.SandboxBridge({ props }),
      hub: name,
      route: 'hub',
    });
    return runInDurableObject(hubs.get(hubs.idFromName(name)), (hub: HubObject) =>
      body({ store: hub.store, sandbox }),
    );
  },
};

describeRuns(harness);
describeRunNames(harness);
describeRunAnswers(harness);
