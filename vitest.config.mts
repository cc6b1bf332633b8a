/**
 * Two projects: `node` (engine, local host, CLI, e2e with a real browser) and `workers` (the same contracts inside
 * workerd through the Workers vitest integration, reading wrangler.toml).
 */
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { WORKERS_TEST_TOKEN } from './test/workers/token.ts';

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
            'test/*.test.ts',
          ],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: './wrangler.toml' },
            // The token a deployed hub gets from `wrangler secret put HUB_TOKEN` (.dev.vars under `npm run dev`).
            miniflare: { bindings: { HUB_TOKEN: WORKERS_TEST_TOKEN } },
          }),
        ],
        test: {
          name: 'workers',
          include: ['test/workers/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
