/**
 * Only a person approves (invariant I2), held by the code's shape: exactly one module calls the
 * store's `recordDecision`, and nothing the MCP surface reaches imports that module.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkImportGraph, sourceFiles } from './import-graph.ts';

const REPO = resolve(import.meta.dirname, '..');
const PERSON_INPUT = 'engine/runs/person-input.ts';

describe('only a person records a decision', () => {
  it('exactly one module calls recordDecision (besides the store that implements it)', () => {
    const callers = ['engine', 'worker', 'durable-objects', 'local', 'dashboard']
      .flatMap((dir) => sourceFiles(REPO, dir))
      .filter((file) => /\.recordDecision\(/.test(readFileSync(join(REPO, file), 'utf8')))
      .filter((file) => !file.startsWith('engine/store/'));
    expect(callers).toEqual([PERSON_INPUT]);
  });

  it('the MCP surface and the execute path never reach the person-input module', () => {
    const roots = [...sourceFiles(REPO, 'engine/surface'), 'engine/runs/runs.ts', 'local/mcp-stdio.ts'];
    const { visited } = checkImportGraph(REPO, roots);
    expect(visited.length).toBeGreaterThan(roots.length);
    expect(visited).not.toContain(PERSON_INPUT);
  });
});
