/** Runs the Sandbox contract against QuickJsSandbox (QuickJS in a worker thread). */
import { QuickJsSandbox } from '../../local/quickjs/sandbox.ts';
import { describeSandbox } from '../conformance/sandbox.suite.ts';

describeSandbox({
  name: 'QuickJS in a worker thread',
  open: () => new QuickJsSandbox({ poolSize: 1 }),
});
