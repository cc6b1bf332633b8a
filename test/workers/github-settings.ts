/**
 * The GitHub the workers test project signs people in with: the stand-in (test/fixtures/
 * github-standin.ts), answering at two made-up origins through miniflare's outboundService
 * (vitest.config.mts), and the settings the Worker gets for it.
 */

export const TEST_GITHUB = {
  clientId: 'Iv1.standin-client',
  clientSecret: 'standin-client-secret-0123456789abcdef',
  webUrl: 'https://github.test',
  apiUrl: 'https://api.github.test',
  users: [
    { id: 4_000_001, login: 'ana', name: 'Ana' },
    { id: 4_000_002, login: 'bo', name: 'Bo' },
    { id: 4_000_003, login: 'mallory', name: 'Mallory' },
  ],
} as const;
