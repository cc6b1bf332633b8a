/**
 * A child process for the crash test: resumes a run the way `execute({ resume })` will, in a
 * fresh process on the hub at CAPABILITIES_HOME, and prints the envelope (or the refusal). argv: <runId>
 */

import type { Output } from '../../local/cli/output.ts';
import { withHub } from '../../local/open-hub.ts';

const runId = process.argv[2] ?? '';
const quiet: Output = { options: { json: true, input: false }, result() {}, note() {} };
try {
  const envelope = await withHub(quiet, async (engine) => (await engine.runs()).resume(runId));
  process.stdout.write(JSON.stringify(envelope));
} catch (error) {
  // A refusal (the run is busy, say) is an answer too: print it as the surface would.
  process.stdout.write(JSON.stringify({ status: 'refused', error: String(error) }));
}
process.exit(0);
