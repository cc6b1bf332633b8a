/**
 * An engine for tests that add, review and call sources but run no code: `createEngine` with a
 * sandbox that says it is not there, so a test that reaches for one fails loudly.
 */
import { createEngine, type Engine, type EngineDeps } from '../engine/engine.ts';

export function engineWithoutSandbox(deps: Omit<EngineDeps, 'sandbox'>): Engine {
  return createEngine({
    ...deps,
    sandbox: () => {
      throw new Error('this test runs no code: it was built without a sandbox');
    },
  });
}
