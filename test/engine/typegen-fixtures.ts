/**
 * Small manifests for typegen's exact-string tests, views of an answer that keep each test about
 * one thing (the input type of a one-tool namespace, or the answer without the `CallOptions` block
 * every answer with a method starts with), and the check that every answer a file's tests saw
 * compiles.
 */
import { describe, expect, it } from 'vitest';
import { toolAddress, toolIdentifiers } from '../../engine/address.ts';
import type { JsonValue } from '../../engine/contracts/names.ts';
import type { Manifest, ManifestTool } from '../../engine/contracts/sources.ts';
import * as typegen from '../../engine/typegen/index.ts';
import { compile, formatDiagnostic } from './typegen-compile.ts';

type JsonObject = { [key: string]: JsonValue };

/**
 * A schema as a test writes it: a JSON literal. (TypeScript widens literals like `[{ $ref }, { type }]`
 * to types with optional `undefined` members, which `JsonValue` rightly refuses; JSON has none.)
 */
export type Schema = unknown;

/** A tool as a server lists it; `address` and `contract` are filled in by {@link manifestOf}. */
export type FixtureTool = Omit<ManifestTool, 'address' | 'contract' | 'inputSchema'> & {
  inputSchema?: JsonObject;
};

/** A manifest of `tools` under `namespace`, addressed as the hub addresses them. */
export function manifestOf(namespace: string, tools: readonly FixtureTool[]): Manifest {
  const ids = toolIdentifiers(tools.map((t) => t.name));
  return {
    namespace,
    fetchedAt: 0,
    tools: tools.map((t) => ({
      ...t,
      inputSchema: t.inputSchema ?? { type: 'object' },
      address: toolAddress(namespace, ids.get(t.name) ?? t.name),
      contract: '0'.repeat(64),
    })),
  };
}

export const CALL_OPTIONS_TEXT = `interface CallOptions {
\t/** A named connection of this source instead of its default. */
\tconnection?: string;
}
`;

/** Every answer given in this test file, in full, for compiling them all at the end. */
const answered: string[] = [];

/** `describeTargets`, keeping each answer for {@link compilesEveryAnswer}. */
export function describeTargets(...args: Parameters<typeof typegen.describeTargets>): typegen.DescribeAnswer {
  const result = typegen.describeTargets(...args);
  answered.push(result.text);
  return result;
}

/** The answer to `targets` over `manifests`, without the leading `CallOptions` block. */
export function answer(manifests: Manifest[], targets: string[], options?: typegen.DescribeOptions): string {
  const { text } = describeTargets(manifests, targets, options);
  return text.startsWith(CALL_OPTIONS_TEXT) ? text.slice(CALL_OPTIONS_TEXT.length) : text;
}

/** The declared input type of a tool `t` with this input schema, as `describe` prints it. */
export function inputType(inputSchema: Schema): string {
  const text = answer([manifestOf('ns', [{ name: 't', inputSchema: inputSchema as JsonObject }])], ['ns.t']);
  const start = text.indexOf('\tt(input: ') + '\tt(input: '.length;
  const end = text.lastIndexOf(', options?: CallOptions)');
  return text.slice(start, end);
}

/** The input type of a tool whose input has one property `p` with this schema (optional unless `required`). */
export function propertyType(schema: Schema, required = false): string {
  const type = inputType({
    type: 'object',
    properties: { p: schema },
    ...(required ? { required: ['p'] } : {}),
  });
  return type.replace(/^\{ p\??: (.*) \}$/s, '$1');
}

/**
 * Adds, last in the calling test file, a test that compiles every answer given in the file (through
 * these helpers), in one program: each exact string above is also valid TypeScript.
 */
export function compilesEveryAnswer(atLeast: number): void {
  describe('every answer above', () => {
    it('compiles under strict with zero diagnostics', () => {
      expect(answered.length).toBeGreaterThanOrEqual(atLeast);
      const compilation = compile(answered.map((text, i) => ({ name: `answer${i}.ts`, text })));
      expect(compilation.diagnostics.map(formatDiagnostic)).toEqual([]);
      compilation.remove();
    });
  });
}
