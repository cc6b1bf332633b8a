/**
 * Two projects: `node` (engine, local host, CLI, e2e) and `workers` (the same contracts inside
 * workerd through the Workers vitest integration, reading wrangler.toml).
 */
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: ['test/engine/**/*.test.ts', 'test/node/**/*.test.ts', 'test/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        plugins: [cloudflareTest({ wrangler: { configPath: './wrangler.toml' } })],
        test: {
          name: 'workers',
          include: ['test/workers/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
