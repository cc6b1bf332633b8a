/**
 * Only a person approves (invariant I2), held by the code's shape:
 * - exactly one module calls the store's `recordDecision`: the person-input module;
 * - only host code handling a person's input reaches it: the signed client prompt
 *   (engine/runs/client-prompt.ts), and the desk's `decide` (engine/desk/run-desk.ts), which
 *   only the CLI's `approve` and the approval page's decide route (behind the host's page
 *   session and the form's CSRF token) call;
 * - the MCP surface and the execute path reach neither: the host injects the client prompt into
 *   the surface (SurfaceDeps.prompt), so the surface's one way to a decision is that module;
 * - in that module, the one call that records sits in `answer`, after the signed state is opened.
 * The behaviour behind the last line (forged, tampered, replayed, expired states refused) is in
 * test/engine/client-prompt.test.ts.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { checkImportGraph, sourceFiles } from './import-graph.ts';

const REPO = resolve(import.meta.dirname, '..');
const PERSON_INPUT = 'engine/approvals/person-input.ts';
const CLIENT_PROMPT = 'engine/runs/client-prompt.ts';
const RUN_DESK = 'engine/desk/run-desk.ts';
const CODE_DIRS = ['engine', 'worker', 'durable-objects', 'local', 'dashboard'];

const code = () => CODE_DIRS.flatMap((dir) => sourceFiles(REPO, dir));
const read = (file: string) => readFileSync(join(REPO, file), 'utf8');

/** Files that import `target` themselves (static, type-only or literal dynamic imports). */
function importersOf(target: string): string[] {
  return code().filter((file) =>
    ts.preProcessFile(read(file), true, true).importedFiles.some(
      (ref) =>
        ref.fileName.startsWith('.') &&
        relative(REPO, resolve(REPO, dirname(file), ref.fileName))
          .split('\\')
          .join('/') === target,
    ),
  );
}

describe('only a person records a decision', () => {
  it('exactly one module calls recordDecision (besides the store that implements it)', () => {
    const callers = code()
      .filter((file) => /\.recordDecision\(/.test(read(file)))
      .filter((file) => !file.startsWith('engine/store/'));
    expect(callers).toEqual([PERSON_INPUT]);
  });

  it('only the CLI approve and the approval page (through the desk) and the signed client prompt import the person-input module', () => {
    expect(importersOf(PERSON_INPUT)).toEqual([RUN_DESK, CLIENT_PROMPT]);
    // The desk's one command that records, `decide`, is called by the CLI's approve and the
    // approval page's decide route alone.
    const deciders = code().filter((file) => /\.decide\(/.test(read(file)));
    expect(deciders).toEqual(['local/cli/hub-runs.ts', 'dashboard/approval-routes.tsx']);
  });

  it('the MCP surface and the execute path reach neither the person-input module nor the client prompt', () => {
    const roots = [...sourceFiles(REPO, 'engine/surface'), 'engine/runs/runs.ts', 'local/mcp-stdio.ts'];
    const { visited } = checkImportGraph(REPO, roots);
    expect(visited.length).toBeGreaterThan(roots.length);
    expect(visited).not.toContain(PERSON_INPUT);
    expect(visited).not.toContain(CLIENT_PROMPT);
    expect(visited).not.toContain(RUN_DESK);
  });

  it('only hosts hand the client prompt to the surface: nothing else imports it', () => {
    const importers = importersOf(CLIENT_PROMPT);
    expect(importers).toContain('local/serve-hub.ts');
    expect(importers.filter((file) => !/^(local|durable-objects)\//.test(file))).toEqual([]);
  });

  it('the client prompt records in one place: `answer`, after it has opened the signed state', () => {
    const source = ts.createSourceFile(CLIENT_PROMPT, read(CLIENT_PROMPT), ts.ScriptTarget.Latest, true);
    const calls: ts.CallExpression[] = [];
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && node.expression.getText(source) === 'recordPersonDecision')
        calls.push(node);
      ts.forEachChild(node, visit);
    };
    visit(source);
    expect(calls).toHaveLength(1);
    let method: ts.Node | undefined = calls[0];
    while (method && !ts.isMethodDeclaration(method)) method = method.parent;
    expect(method && ts.isMethodDeclaration(method) ? method.name.getText(source) : undefined).toBe('answer');
    const body = method && ts.isMethodDeclaration(method) ? (method.body?.statements ?? []) : [];
    expect(body[0]?.getText(source)).toBe('const claim = await this.#state.open(state);');
  });
});
