/** Runs the Sandbox contract against WorkerLoaderSandbox: dynamic Workers in workerd. */
import { env, exports } from 'cloudflare:workers';
import type { HubEnv } from '../../durable-objects/hub-env.ts';
import type { BridgeProps } from '../../durable-objects/sandbox-bridge.ts';
import { WorkerLoaderSandbox } from '../../durable-objects/worker-loader-sandbox.ts';
import { describeSandbox } from '../conformance/sandbox.suite.ts';

const loopback = exports as unknown as { SandboxBridge: (options: { props: BridgeProps }) => Fetcher };

describeSandbox({
  name: 'Worker Loader in workerd',
  open() {
    const loader = (env as unknown as HubEnv).LOADER;
    if (!loader) throw new Error('wrangler.toml has no [[worker_loaders]] binding LOADER');
    return new WorkerLoaderSandbox({
      loader,
      bridge: (props) => loopback.SandboxBridge({ props }),
      hub: 'test',
    });
  },
  knownFailures: {
    'a memory bomb ends at the memory limit':
      'workerd caps no isolate memory when it runs locally (Cloudflare caps each isolate at 128 MB, not memoryBytes): the bounded bomb completes',
  },
});
