/**
 * The eval's live path without a network: `npm run eval -- --live --model <id>` against a
 * loopback stand-in of the Messages API (ANTHROPIC_BASE_URL) that answers a recorded transcript's
 * turns. The official SDK sends the arm's system prompt and tools with the key; the tool results
 * the model reads next are what the tools answered; the API's usage becomes the figures; and the
 * live run's own transcript, recorded, replays to the same verdict.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BRIEF } from '../../eval/arms/system.ts';
import { type Transcript, transcriptPath } from '../../eval/model/transcript.ts';
import type { EvalResults } from '../../eval/report.ts';
import { messagesStandIn } from '../fixtures/messages-standin.ts';
import { collected, REPO } from './cli-process.ts';

const TASK = 'slack-post-deploy-done';
const MODEL = 'claude-stand-in';
const RUN = join(REPO, 'eval', 'run.ts');
const recorded = (arm: 'code' | 'direct') =>
  JSON.parse(
    readFileSync(transcriptPath(join(REPO, 'eval', 'transcripts'), 'scripted', arm, TASK), 'utf8'),
  ) as Transcript;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function evalCli(args: readonly string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', RUN, ...args], {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collected(child, 'npm run eval');
}

describe('npm run eval -- --live', { timeout: 180_000 }, () => {
  it('asks the Messages API turn by turn with the arm’s tools, counts its usage, and records a transcript that replays', async () => {
    const code = recorded('code');
    const direct = recorded('direct');
    const api = await messagesStandIn({ code, direct });
    cleanups.push(() => api.close());
    const out = mkdtempSync(join(tmpdir(), 'eval-live-'));
    cleanups.push(() => rmSync(out, { recursive: true, force: true }));

    const missingKey = await evalCli(['--live', '--model', MODEL, '--task', TASK, '--out', out], {
      ANTHROPIC_API_KEY: '',
      ANTHROPIC_BASE_URL: api.url,
    });
    expect(missingKey.status).not.toBe(0);
    expect(missingKey.stderr).toContain('ANTHROPIC_API_KEY');

    const live = await evalCli(
      ['--live', '--model', MODEL, '--task', TASK, '--arms', 'code,direct', '--out', out],
      {
        ANTHROPIC_API_KEY: 'sk-ant-stand-in',
        ANTHROPIC_BASE_URL: api.url,
      },
    );
    expect(live.status, live.stderr).toBe(0);
    expect(api.requests).toHaveLength(code.turns.length + direct.turns.length);
    const [first, ...rest] = api.requests.slice(0, code.turns.length);
    // The key goes as the SDK sends it (this version: `authorization: Bearer`).
    expect([first?.headers['x-api-key'], first?.headers.authorization]).toContainEqual(
      expect.stringContaining('sk-ant-stand-in'),
    );
    expect(first?.body.model).toBe(MODEL);
    expect(first?.body.system).toContain(BRIEF);
    expect(first?.body.tools?.map((tool) => tool.name).sort()).toEqual(['describe', 'execute', 'search']);
    // What the model reads next is what the tools answered this time (the hub's own words).
    for (const request of rest) expect(JSON.stringify(request.body.messages.at(-1))).toContain('tool_result');

    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as EvalResults;
    expect(results).toMatchObject({ model: MODEL, mode: 'live' });
    for (const [arm, transcript] of [
      ['code', code],
      ['direct', direct],
    ] as const) {
      const figures = results.tasks[0]?.arms[arm];
      expect(figures?.success, figures?.why).toBe(true);
      expect(figures?.inputTokens).toBe(
        transcript.turns.reduce((sum, turn) => sum + turn.usage.inputTokens, 0),
      );
    }
    const directTools = api.requests[code.turns.length]?.body.tools?.map((tool) => tool.name) ?? [];
    expect(directTools.length).toBeGreaterThan(100);
    expect(directTools.every((name) => name.startsWith('mcp__'))).toBe(true);

    const replayed = await evalCli([
      '--replay',
      join(out, 'transcripts'),
      '--model',
      MODEL,
      '--task',
      TASK,
      '--arms',
      'code,direct',
      '--out',
      join(out, 'again'),
    ]);
    expect(replayed.status, replayed.stderr).toBe(0);
  });
});
