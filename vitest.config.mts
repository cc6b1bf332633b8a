/**
 * Two projects: `node` (engine, local host, CLI, e2e with a real browser) and `workers` (the same contracts inside
 * workerd through the Workers vitest integration, reading wrangler.toml).
 */
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { configDefaults, defineConfig } from 'vitest/config';
import { githubStandIn } from './test/fixtures/github-standin.ts';
import { UPSTREAM_ORIGIN, upstreamStandIn } from './test/fixtures/upstream-standin.ts';
import { TEST_GITHUB } from './test/workers/github-settings.ts';
import { WORKERS_TEST_TOKEN } from './test/workers/token.ts';

/** GitHub for the workers project: the stand-in, one instance for the whole run. */
const github = githubStandIn(TEST_GITHUB);
const GITHUB_HOSTS = new Set([new URL(TEST_GITHUB.webUrl).host, new URL(TEST_GITHUB.apiUrl).host]);
/** The upstream the hosted invariant files call, one instance for the whole run (rooms keep tests apart). */
const upstream = upstreamStandIn();
const UPSTREAM_HOST = new URL(UPSTREAM_ORIGIN).host;

/**
 * Every fetch the Worker makes, answered in Node: GitHub's origins by its stand-in, the upstream's
 * by test/fixtures/upstream-standin.ts; any other passed on to the network as before.
 */
async function outbound(request: Request): Promise<Response> {
  const body =
    request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
  const copy = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body,
    redirect: 'manual',
  });
  const host = new URL(request.url).host;
  if (GITHUB_HOSTS.has(host)) return github(copy);
  return host === UPSTREAM_HOST ? upstream(copy) : fetch(copy);
}

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: [
            'test/engine/**/*.test.ts',
            'test/node/**/*.test.ts',
            'test/e2e/**/*.test.ts',
            'test/invariants/*.test.ts',
            'test/*.test.ts',
          ],
          // The invariant suite's hosted halves run inside workerd, in the workers project.
          exclude: [...configDefaults.exclude, 'test/invariants/*.workers.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              bindings: {
                // The token a deployed hub gets from `wrangler secret put HUB_TOKEN` (.dev.vars under `npm run dev`).
                HUB_TOKEN: WORKERS_TEST_TOKEN,
                // The GitHub app people sign in with, and where GitHub is: the stand-in below.
                GITHUB_CLIENT_ID: TEST_GITHUB.clientId,
                GITHUB_CLIENT_SECRET: TEST_GITHUB.clientSecret,
                GITHUB_URL: TEST_GITHUB.webUrl,
                GITHUB_API_URL: TEST_GITHUB.apiUrl,
                // What `wrangler secret put SECRETS_KEY` sets: each hub's connection secrets are encrypted under it.
                SECRETS_KEY: 'workers-test-secrets-key-0123456789abcdef',
              },
              outboundService: outbound,
            },
          }),
        ],
        test: {
          name: 'workers',
          include: ['test/workers/**/*.test.ts', 'test/invariants/*.workers.test.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
