/**
 * The Sandbox contract (engine/ports.ts; spec: The MCP surface, "Inside the sandbox" and
 * "Default limits"; Security, "Code runs with no way out"). One suite, a runner per driver:
 * test/node/sandbox.test.ts (QuickJS in a worker thread) and test/workers/sandbox.test.ts
 * (Worker Loader in workerd). A gap in one driver is a known failure with its reason, run as
 * it.fails, never skipped.
 *
 * Sections: shapes (what the pipeline forgives, end to end), the prelude, the roads out (absent
 * globals, the Function constructor, the host's primitives), the bridge (numbering,
 * concurrency, host endings), and exhaustion (each limit ends the attempt with a clear error,
 * and the next attempt in the same host works). Limits are lowered per check to keep the suite
 * fast; one check holds the defaults to the spec's numbers.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Sandbox } from '../../engine/sandbox/sandbox.ts';
import { bridgeChecks } from './sandbox/bridge.ts';
import { escapeChecks } from './sandbox/escape.ts';
import { exhaustionChecks } from './sandbox/exhaustion.ts';
import { type Check, runner } from './sandbox/fixtures.ts';
import { preludeChecks } from './sandbox/prelude.ts';
import { shapeChecks } from './sandbox/shapes.ts';

export interface SandboxHarness {
  name: string;
  /** A sandbox for the whole suite; closed at the end. */
  open(): Sandbox | Promise<Sandbox>;
  /** Title -> reason: runs as it.fails, so fixing it forces removing the entry. */
  knownFailures?: Record<string, string>;
}

export function describeSandbox(harness: SandboxHarness): void {
  describe(`Sandbox contract: ${harness.name}`, () => {
    let sandbox: Sandbox | undefined;
    beforeAll(async () => {
      sandbox = await harness.open();
    });
    afterAll(async () => {
      await sandbox?.close();
    });
    const run = runner(() => {
      if (!sandbox) throw new Error('the sandbox is not open');
      return sandbox;
    });
    const check: Check = (title, body, timeoutMs) =>
      (harness.knownFailures?.[title] ? it.fails : it)(title, () => body(run), timeoutMs);

    describe('shapes', () => shapeChecks(check));
    describe('prelude', () => preludeChecks(check));
    describe('roads out', () => escapeChecks(check));
    describe('bridge', () => bridgeChecks(check));
    describe('exhaustion', () => exhaustionChecks(check));
  });
}
