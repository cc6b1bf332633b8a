/** The bearer token the workers test project gives the Worker (see vitest.config.mts). */
export const WORKERS_TEST_TOKEN = 'workers-test-token-0123456789abcdefghijklmnop';
