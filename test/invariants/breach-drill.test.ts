/**
 * The breach drill: proof that every file of the invariant suite can fail (issue #20, "a test
 * that fails on purpose shows each file can fail"). A suite that passes whatever the product does
 * guards nothing, so this file plants one breach per invariant file (each runner of a shared
 * suite, local and hosted, is a file of its own) in a scratch copy of the checkout (the product's
 * own files, as they are now), runs that file's attack against it, and expects the attack to
 * fail. The working copy is never touched.
 *
 * | File                              | Planted breach                                                   | Attack that must fail                    |
 * | --------------------------------- | ---------------------------------------------------------------- | ---------------------------------------- |
 * | i1-secrets                        | the scrubber forgets the base64 forms of a secret                | holds no base64 form of the secret       |
 * | i2-decisions                      | the page takes any CSRF token                                    | … no CSRF … refused                      |
 * | i3-authority                      | a changed tool that now says it only reads is no longer asked    | the tool now declares itself read-only   |
 * | i4-upstreams                      | a redirect to another port of the same host is followed          | refuses a redirect to another origin     |
 * | i4-no-way-out                     | the QuickJS host hands the guest a `fetch`                       | fetch is refused or absent               |
 * | i6-never-twice                    | resume ignores the journal and admits every call again           | a run of two writes approved in turn     |
 * | i7-budgets                        | a run may make twice its `maxCalls`                              | calls past the cap fail                  |
 * | i5-tenants.workers                | /mcp serves the hub a `?hub=` names, not the token's             | B’s token naming A’s hub …               |
 * | i3-authority.workers              | the hub no longer lists a source before a run's first call       | … between two runs and nobody refreshes  |
 * | i4-upstreams.workers              | a redirect to the same host on another scheme or port is followed | refuses a redirect to another origin     |
 * | i6-never-twice.workers            | resume ignores the journal and admits every call again           | the hub object aborted mid-call …        |
 * | i7-budgets.workers                | a run may make twice its `maxCalls`                              | calls past the cap fail                  |
 * | i1-secrets.workers                | the scrubber forgets the base64 forms of a secret                | holds no base64 form of the secret       |
 * | i2-decisions.workers              | the page takes any CSRF token                                    | the session without its CSRF token …     |
 * | i8-configuration.workers          | the guest's `hub` gains an `approve`                             | no global and no `hub` member configures |
 * | i8-configuration                  | the guest's `hub` gains an `approve`                             | no global and no `hub` member configures |
 * | hostile-sources                   | `constructor` is a namespace like any other                      | a namespace colliding with the language… |
 * | hostile-answers                   | the scrubber no longer undoes `\uXXXX` escapes                   | echoed as JSON \u escapes                |
 *
 * Each row's breach is a text replaced in one product file; the text must occur exactly once,
 * so a product change that moves it fails this drill with a message to update the row, rather
 * than planting nothing. Every row runs on the copy as it was before the row, one at a time.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../node/cli-process.ts';

interface Breach {
  /** The invariant file, under test/invariants/. */
  file: string;
  /** A pattern naming the attack(s) in that file that must fail (vitest's -t). */
  attack: string;
  /** The product file planted, and the text replaced in it. */
  plant: { path: string; from: string; to: string };
}

const BREACHES: Breach[] = [
  {
    file: 'i1-secrets.test.ts',
    attack: 'holds no base64 form of the secret',
    plant: {
      path: 'engine/secrets/scrub.ts',
      from: "    b64,\n    b64.replace(/=+$/, ''),\n    toBase64url(b64),\n    ...aligned,\n    ...aligned.map(toBase64url),\n",
      to: '',
    },
  },
  {
    file: 'i2-decisions.test.ts',
    attack: 'without a session, with the MCP token, a reused link, no CSRF',
    plant: {
      path: 'dashboard/session.ts',
      from: 'return diff === 0;',
      to: 'return true;',
    },
  },
  {
    file: 'i3-authority.test.ts',
    attack: 'the tool now declares itself read-only',
    plant: {
      path: 'engine/policy/evaluate.ts',
      from: "if (reviewedContract !== tool.contract) return { effect: 'ask', by: 'changed' };",
      to: "if (reviewedContract !== tool.contract && tool.annotations?.readOnlyHint !== true) return { effect: 'ask', by: 'changed' };",
    },
  },
  {
    file: 'i4-upstreams.test.ts',
    attack: 'refuses a redirect to another origin',
    plant: {
      path: 'engine/connectors/guarded-fetch.ts',
      from: 'if (next.origin !== origin) {',
      to: 'if (next.origin !== origin && next.hostname !== url.hostname) {',
    },
  },
  {
    file: 'i4-no-way-out.test.ts',
    attack: 'fetch is refused or absent',
    plant: {
      path: 'local/quickjs/attempt.ts',
      from: "    define('log', (line) => {\n",
      to:
        "    const road = ctx.newFunction('fetch', (url) => void fetch(string(url)).catch(() => {}));\n" +
        "    ctx.setProp(ctx.global, 'fetch', road);\n    road.dispose();\n    define('log', (line) => {\n",
    },
  },
  {
    file: 'i6-never-twice.test.ts',
    attack: 'a run of two writes approved in turn',
    plant: {
      path: 'engine/runs/call-gate.ts',
      from: 'return entry ? replay(store, call, digest, entry) : admit(deps, run, call, digest, prepared);',
      to: 'return admit(deps, run, call, digest, prepared);',
    },
  },
  {
    file: 'i7-budgets.test.ts',
    attack: 'calls past the cap fail',
    plant: {
      path: 'engine/runs/call-gate.ts',
      from: 'if (store.countJournal(run.id) >= deps.limits.maxCalls) {',
      to: 'if (store.countJournal(run.id) >= deps.limits.maxCalls * 2) {',
    },
  },
  {
    file: 'i5-tenants.workers.test.ts',
    attack: 'B’s token naming A’s hub',
    plant: {
      path: 'worker/index.ts',
      from: 'const hub = hubNamed(env, props.hub);',
      to: "const hub = hubNamed(env, new URL(request.url).searchParams.get('hub') ?? props.hub);",
    },
  },
  {
    file: 'i3-authority.workers.test.ts',
    attack: '`post` changes upstream between two runs and nobody refreshes',
    plant: {
      path: 'engine/engine.ts',
      from: '      recheck: (namespace, attempt) => recheck.recheck(namespace, attempt),\n',
      to: '',
    },
  },
  {
    file: 'i4-upstreams.workers.test.ts',
    attack: 'refuses a redirect to another origin',
    plant: {
      path: 'engine/connectors/guarded-fetch.ts',
      from: 'if (next.origin !== origin) {',
      to: 'if (next.origin !== origin && next.hostname !== url.hostname) {',
    },
  },
  {
    file: 'i6-never-twice.workers.test.ts',
    attack: 'the hub object aborted mid-call',
    plant: {
      path: 'engine/runs/call-gate.ts',
      from: 'return entry ? replay(store, call, digest, entry) : admit(deps, run, call, digest, prepared);',
      to: 'return admit(deps, run, call, digest, prepared);',
    },
  },
  {
    file: 'i7-budgets.workers.test.ts',
    attack: 'calls past the cap fail',
    plant: {
      path: 'engine/runs/call-gate.ts',
      from: 'if (store.countJournal(run.id) >= deps.limits.maxCalls) {',
      to: 'if (store.countJournal(run.id) >= deps.limits.maxCalls * 2) {',
    },
  },
  {
    file: 'i1-secrets.workers.test.ts',
    attack: 'holds no base64 form of the secret',
    plant: {
      path: 'engine/secrets/scrub.ts',
      from: "    b64,\n    b64.replace(/=+$/, ''),\n    toBase64url(b64),\n    ...aligned,\n    ...aligned.map(toBase64url),\n",
      to: '',
    },
  },
  {
    file: 'i2-decisions.workers.test.ts',
    attack: 'the session without its CSRF token',
    plant: {
      path: 'dashboard/session.ts',
      from: 'return diff === 0;',
      to: 'return true;',
    },
  },
  {
    file: 'i8-configuration.workers.test.ts',
    attack: 'no global and no `hub` member configures',
    plant: {
      path: 'engine/prelude/source/bridge.ts',
      from: 'const hub = freeze({\n',
      to: 'const hub = freeze({\n  approve: freeze(async function approve() {}),\n',
    },
  },
  {
    file: 'i8-configuration.test.ts',
    attack: 'no global and no `hub` member configures',
    plant: {
      path: 'engine/prelude/source/bridge.ts',
      from: 'const hub = freeze({\n',
      to: 'const hub = freeze({\n  approve: freeze(async function approve() {}),\n',
    },
  },
  {
    file: 'hostile-sources.test.ts',
    attack: 'a namespace colliding with the language or the prelude is refused clearly',
    plant: {
      path: 'engine/contracts/names.ts',
      from: '  ...Object.getOwnPropertyNames(Object.prototype),\n',
      to: '',
    },
  },
  {
    file: 'hostile-answers.test.ts',
    attack: 'echoed as JSON \\u escapes',
    plant: {
      path: 'engine/secrets/decoded-view.ts',
      from: "const unit = text.charAt(i + 1) === 'u' ? hexAt(text, i + 2, 4) : -1;",
      to: 'const unit = -1;',
    },
  },
];

let copy: string;

/** The checkout's tracked files, as they are in the working copy, with its node_modules linked. */
beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'capabilities-breach-'));
  const listed = spawnSync('git', ['ls-files', '-z'], { cwd: REPO, encoding: 'utf8' });
  expect(listed.status, listed.stderr).toBe(0);
  for (const path of listed.stdout.split('\0').filter(Boolean)) {
    cpSync(join(REPO, path), join(copy, path), { recursive: true, errorOnExist: false });
  }
  symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'));
}, 120_000);

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

interface Outcome {
  status: string;
  failureMessages: string[];
}

/** The outcome of each test the run selected, by its full name, and the run's own output. */
function runAttack(breach: Breach): { outcomes: Map<string, Outcome>; output: string } {
  const report = join(copy, 'breach-report.json');
  rmSync(report, { force: true });
  // The copy's own vitest, not this run's: no setting of the outer run leaks in.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(VITEST|TINYPOOL|NODE_OPTIONS)/.test(name)),
  );
  const project = breach.file.endsWith('.workers.test.ts') ? 'workers' : 'node';
  const ran = spawnSync(
    process.execPath,
    [
      join(copy, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      `test/invariants/${breach.file}`,
      '--project',
      project,
      '-t',
      breach.attack.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      '--reporter=json',
      `--outputFile=${report}`,
    ],
    {
      cwd: copy,
      env: { ...env, CAPABILITIES_FROM_SOURCE: '1', CI: '1' },
      encoding: 'utf8',
      timeout: 600_000,
    },
  );
  const parsed = JSON.parse(readFileSync(report, 'utf8')) as {
    testResults: { assertionResults: ({ fullName: string } & Outcome)[] }[];
  };
  const outcomes = new Map<string, Outcome>();
  for (const file of parsed.testResults)
    for (const { fullName, status, failureMessages } of file.assertionResults)
      outcomes.set(fullName, { status, failureMessages });
  const output = `${ran.stdout}\n${ran.stderr}`;
  if (outcomes.size === 0) throw new Error(`${breach.file} ran nothing:\n${output}`);
  return { outcomes, output };
}

describe('the breach drill: each invariant file fails when its invariant breaks', () => {
  it.each(BREACHES)(
    '$file fails on its planted breach',
    (breach) => {
      const path = join(copy, breach.plant.path);
      const before = readFileSync(path, 'utf8');
      expect(
        before.split(breach.plant.from).length - 1,
        `${breach.plant.path} no longer holds the text this row plants its breach in: update the row`,
      ).toBe(1);
      writeFileSync(path, before.replace(breach.plant.from, breach.plant.to));
      try {
        const { outcomes, output } = runAttack(breach);
        const attacks = [...outcomes.values()].filter(
          ({ status }) => status !== 'skipped' && status !== 'pending',
        );
        expect(
          attacks.length,
          `no attack in ${breach.file} matches "${breach.attack}" or none ran:\n${output.slice(-4000)}`,
        ).toBeGreaterThan(0);
        // Failed on an expectation, not on its setup: the attack saw the breach.
        const caught = attacks.filter(
          ({ status, failureMessages }) =>
            status === 'failed' && failureMessages.some((message) => message.startsWith('AssertionError')),
        );
        expect(caught, JSON.stringify(attacks).slice(0, 4000)).not.toEqual([]);
      } finally {
        writeFileSync(path, before);
      }
    },
    900_000,
  );
});
