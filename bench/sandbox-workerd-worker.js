/**
 * The Worker run in workerd for the sandbox benchmark (bench/sandbox-workerd.ts). Each route runs
 * `n` of one thing and answers the milliseconds they took together, measured here: workerd's
 * clock moves only across I/O (loading and calling a dynamic Worker is I/O) and in whole
 * milliseconds, so single short things are timed in batches.
 *
 * - /floor/attempt: load a dynamic Worker whose `run` returns the same trivial value, and call it;
 * - /ours/attempt: a trivial attempt in WorkerLoaderSandbox;
 * - /floor/calls: one dynamic Worker making `n` sequential RPCs to a bare WorkerEntrypoint;
 * - /ours/calls: one attempt making `n` sequential calls to a no-op tool.
 *
 * Plain JavaScript: bench/ is type-checked with Node's types, and this file runs in workerd
 * (wrangler bundles it, with the TypeScript it imports).
 */
import { WorkerEntrypoint } from 'cloudflare:workers';
import { WorkerLoaderSandbox } from '../durable-objects/worker-loader-sandbox.ts';

export { SandboxBridge } from '../durable-objects/sandbox-bridge.ts';

/** The floor's bridge: answers at once, no gate. */
export class BareBridge extends WorkerEntrypoint {
  async noop() {
    return '{"ok":true,"value":null}';
  }
}

/** @type {import('../engine/ports.ts').SandboxHost} */
const host = {
  call: async () => ({ kind: 'value', value: null }),
  lookup: async () => ({ kind: 'value', value: '' }),
};

/** A dynamic Worker whose `run` executes `body`, with `bridge` as `env.BRIDGE`. */
function bare(loader, body, bridge) {
  return loader
    .load({
      compatibilityDate: '2026-11-01',
      mainModule: 'main.js',
      modules: {
        'main.js': `import { WorkerEntrypoint } from 'cloudflare:workers';\nexport default class extends WorkerEntrypoint { async run() { const bridge = this.env.BRIDGE; ${body} } }`,
      },
      env: bridge ? { BRIDGE: bridge } : {},
      globalOutbound: null,
    })
    .getEntrypoint();
}

async function total(n, work) {
  const start = performance.now();
  for (let i = 0; i < n; i++) await work();
  return performance.now() - start;
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    const n = Number(url.searchParams.get('n') ?? '1');
    const loopback = ctx.exports;
    const sandbox = new WorkerLoaderSandbox({
      loader: env.LOADER,
      bridge: (props) => loopback.SandboxBridge({ props }),
      hub: 'bench',
    });
    const attempt = (code) =>
      sandbox.run(
        { runId: 'bench', attempt: 1, code, namespaces: { bench: ['noop'] }, seed: 'bench', clockOrigin: 0 },
        host,
      );
    switch (url.pathname) {
      case '/floor/attempt':
        return Response.json(await total(n, () => bare(env.LOADER, 'return 1;').run()));
      case '/ours/attempt':
        return Response.json(await total(n, () => attempt('return 1')));
      case '/floor/calls': {
        const guest = bare(
          env.LOADER,
          `for (let i = 0; i < ${n}; i++) await bridge.noop(); return 1;`,
          loopback.BareBridge({ props: {} }),
        );
        return Response.json(await total(1, () => guest.run()));
      }
      case '/ours/calls':
        return Response.json(
          await total(1, () => attempt(`for (let i = 0; i < ${n}; i++) await bench.noop({});\nreturn 1`)),
        );
      default:
        return new Response('not found', { status: 404 });
    }
  },
};
