/**
 * The Cloudflare entry: turns env into the app's adapters. One HubObject per hub name; `/mcp`
 * is served here (worker/hub-surface.ts) and answered by that object over RPC.
 */
import { type HubEnv, HubObject } from '../durable-objects/hub-object.ts';
import { createMcpHttpHandler } from '../engine/surface/index.ts';
import pkg from '../package.json';
import { createApp } from './app.ts';
import { hubObjectSurface } from './hub-surface.ts';

/** The guest bridge, exported so `ctx.exports.SandboxBridge` exists (WorkerLoaderSandbox). */
export { SandboxBridge } from '../durable-objects/sandbox-bridge.ts';
export { HubObject };

export default {
  async fetch(request, env, ctx): Promise<Response> {
    const token = env.HUB_TOKEN;
    if (!token || token.length < 32) {
      return new Response(
        'This hub has no HUB_TOKEN of at least 32 characters. Set it in .dev.vars (HUB_TOKEN=…) for `npm run dev`, or with `wrangler secret put HUB_TOKEN`.',
        { status: 500 },
      );
    }
    const hub = env.HUB.get(env.HUB.idFromName(env.HUB_NAME ?? 'default'));
    const mcp = createMcpHttpHandler(hubObjectSurface(hub, pkg.version));
    const app = createApp({ hub: { health: () => hub.health() }, token, mcp: mcp.fetch });
    return app.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<HubEnv>;
