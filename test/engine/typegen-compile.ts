/**
 * Compiles generated declarations with the TypeScript compiler, as a model's editor would:
 * `strict`, ES2023 lib only, no @types. Files are written to a fresh temp dir (kept when a check
 * fails, so the output can be read) and compiled as ONE program, which is what keeps checking
 * the whole corpus to seconds. Each file is a module (`export {}` is added), so every answer can
 * declare `CallOptions` and its namespaces without colliding with the others.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';

export interface SourceFile {
  /** A file name, unique in the program, without directories (`github.create_issue.ts`). */
  name: string;
  text: string;
}

export interface Diagnostic {
  file: string;
  /** 1-based, in the file's text as given (the added `export {}` line not counted). */
  line: number;
  code: number;
  message: string;
}

export interface Compilation {
  dir: string;
  diagnostics: Diagnostic[];
  /** Deletes the temp dir. */
  remove(): void;
}

export const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2023,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2023.d.ts'],
  types: [],
  // The lib's own declarations are TypeScript's to check; ours are .ts files and always checked.
  skipLibCheck: true,
};

/** Compiles `files` together; every diagnostic, with its file and line. */
export function compile(files: readonly SourceFile[]): Compilation {
  const dir = mkdtempSync(join(tmpdir(), 'capabilities-typegen-'));
  const paths = files.map((file) => {
    const path = join(dir, file.name);
    writeFileSync(path, `export {};\n${file.text}`);
    return path;
  });
  const program = ts.createProgram(paths, COMPILER_OPTIONS);
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d): Diagnostic => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (d.file === undefined || d.start === undefined) return { file: '', line: 0, code: d.code, message };
    const { line } = d.file.getLineAndCharacterOfPosition(d.start); // 0-based, after `export {};`
    return { file: d.file.fileName.slice(dir.length + 1), line, code: d.code, message };
  });
  return { dir, diagnostics, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `file:line TS<code> message`, for readable failures. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line} TS${d.code} ${d.message}`;
}
