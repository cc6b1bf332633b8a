/**
 * The code pipeline (spec: The MCP surface, execute): what `execute({ code })` runs is the body
 * of an async function in plain JavaScript. The pipeline gets there from what models really send,
 * in this order, adding one line to `notices` per rewrite:
 *
 * 1. code over `codeBytes` (64 KB) is refused before anything else reads it;
 * 2. the body of a fenced block (```js, ts, javascript, typescript or none) is taken;
 * 3. TypeScript annotations are stripped with sucrase, only when the code is not already valid
 *    JavaScript (so `a < b > (c)` stays a comparison);
 * 4. the shape is fixed (shapes.ts): `export default`, a lone function, a final expression.
 *
 * Invariants: it never throws; its output is line-aligned with the model's code (line N is line
 * N), so a position reported by a sandbox needs no mapping; a syntax error names the line and
 * column in the model's own text; `import` and `export` are refused here, because no module
 * exists in the sandbox and `import()` must not reach a runtime's module loader.
 */
import { transform } from 'sucrase';
import { TokenType as tt } from 'sucrase/dist/parser/tokenizer/types.js';
import { unfence } from './fences.ts';
import { reshape } from './shapes.ts';
import { position, type SyntaxFailure, tokenize } from './tokens.ts';
import { utf8Length } from './utf8.ts';

export { utf8Length } from './utf8.ts';

/** The spec's `codeBytes`: 64 KB of UTF-8. */
export const DEFAULT_CODE_BYTES = 64 * 1024;

export type PipelineErrorCode = 'code_too_large' | 'syntax_error' | 'unsupported';

/** Why the code cannot run, with the position in the model's code when there is one. */
export interface PipelineError {
  code: PipelineErrorCode;
  message: string;
  hint?: string;
  line?: number;
  column?: number;
}

export type PreparedCode =
  | { ok: true; code: string; notices: string[] }
  | { ok: false; error: PipelineError; notices: string[] };

/** Turns what the model sent into the body of an async function, or says why it cannot run. */
export function prepareCode(source: string, options: { codeBytes?: number } = {}): PreparedCode {
  const codeBytes = options.codeBytes ?? DEFAULT_CODE_BYTES;
  const size = utf8Length(source, codeBytes + 1);
  if (size > codeBytes) {
    return refuse([], {
      code: 'code_too_large',
      message: `The code is over ${codeBytes.toLocaleString('en-US')} bytes, the most one execute takes.`,
      hint: 'Send less code: move data into tool calls instead of pasting it, or split the work into several executes.',
    });
  }

  const notices: string[] = [];
  let code = source;
  const fence = unfence(source);
  if (fence.kind === 'other-language') {
    return refuse(notices, {
      code: 'unsupported',
      message: `The code is a \`\`\`${fence.tag} block; execute runs JavaScript or TypeScript.`,
      line: 1,
      column: 1,
    });
  }
  if (fence.kind === 'fenced') {
    code = fence.code;
    const from = fence.tag ? `its \`\`\`${fence.tag} block` : 'its fenced block';
    const ignored = fence.ignoredLines ? `; ignored ${fence.ignoredLines} line(s) after the fence` : '';
    notices.push(`Took the code from ${from}${ignored}.`);
  }

  let parsed = tokenize(code, false);
  if (!parsed.ok) {
    const typed = tokenize(code, true);
    if (!typed.ok) return refuse(notices, syntaxError(typed.failure));
    const stripped = stripTypes(code);
    if (stripped === undefined) {
      return refuse(
        notices,
        syntaxError({ message: 'The TypeScript could not be stripped.', line: 1, column: 1 }),
      );
    }
    const reparsed = tokenize(stripped, false);
    if (!reparsed.ok) return refuse(notices, syntaxError(reparsed.failure));
    parsed = reparsed;
    code = stripped;
    notices.push('Stripped the TypeScript annotations.');
  }

  const modules = moduleSyntax(code, parsed.tokens);
  if (modules) return refuse(notices, modules);

  const shaped = reshape(code, parsed.tokens);
  // A rewrite that does not parse is our mistake, not the model's: run the code as it was.
  if (shaped.notices.length > 0 && tokenize(shaped.code, false).ok) {
    code = shaped.code;
    notices.push(...shaped.notices);
  }
  return { ok: true, code, notices };
}

function refuse(notices: string[], error: PipelineError): PreparedCode {
  return { ok: false, error, notices };
}

/**
 * sucrase types the `import` of `import.meta` as a plain name, as it does a property called
 * `import` (`o.import`, `{ import: 1 }`); only the former is `import . meta` not after a dot.
 */
function isImportMeta(
  code: string,
  tokens: readonly { type: number; start: number; end: number }[],
  i: number,
): boolean {
  const text = (j: number) => {
    const token = tokens[j];
    return token ? code.slice(token.start, token.end) : '';
  };
  const before = tokens[i - 1]?.type;
  return (
    tokens[i]?.type === tt.name &&
    text(i) === 'import' &&
    tokens[i + 1]?.type === tt.dot &&
    text(i + 2) === 'meta' &&
    before !== tt.dot &&
    before !== tt.questionDot
  );
}

function syntaxError(failure: SyntaxFailure): PipelineError {
  return {
    code: 'syntax_error',
    message: `SyntaxError: ${failure.message} (line ${failure.line}, column ${failure.column})`,
    line: failure.line,
    column: failure.column,
  };
}

/** The code with its TypeScript removed; sucrase keeps every line where it was. */
function stripTypes(code: string): string | undefined {
  try {
    return transform(code, { transforms: ['typescript'], disableESTransforms: true }).code;
  } catch {
    return undefined;
  }
}

/**
 * Why `code` (plain JavaScript) cannot run in a sandbox, if it reaches for modules: for a
 * driver whose runtime could load one (a dynamic Worker can import `cloudflare:workers`), as a
 * second line behind the pipeline.
 */
export function refuseModules(code: string): PipelineError | undefined {
  const parsed = tokenize(code, false);
  return parsed.ok ? moduleSyntax(code, parsed.tokens) : syntaxError(parsed.failure);
}

/** `import` anywhere, or `export` other than a top-level `export default`: neither can run here. */
function moduleSyntax(
  code: string,
  tokens: readonly { type: number; start: number; end: number }[],
): PipelineError | undefined {
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (!token) continue;
    if (token.type === tt._import || isImportMeta(code, tokens, i)) {
      const at = position(code, token.start);
      return {
        code: 'unsupported',
        message: `import is not available in the sandbox (line ${at.line}, column ${at.column}).`,
        hint: 'There are no modules to load: your sources are already globals, e.g. `await github.searchIssues({ q })`.',
        ...at,
      };
    }
    if (token.type === tt._export && tokens[i + 1]?.type !== tt._default) {
      const at = position(code, token.start);
      return {
        code: 'unsupported',
        message: `export is not available in the sandbox (line ${at.line}, column ${at.column}).`,
        hint: 'Write the body of an async function and `return` what you need.',
        ...at,
      };
    }
  }
  return undefined;
}
