/**
 * What one source may declare (spec: Security, invariant I7 "every channel has a budget"). A
 * source's `tools/list` answer is untrusted: one tool with a 5,000-character name once made a
 * single `describe` take seconds on the hub's main thread. Every part of the answer the hub keeps
 * is bounded here, before a manifest is built, so every answer made from a manifest is bounded
 * too, on both hosts and for `add` and `refresh` alike.
 *
 * - A part that is only read by people and models (a title, a description, the server's
 *   instructions, its name and version) is cut, and ends with a marker saying how much went.
 * - A part that is called or checked (the name, which is what the hub calls upstream; the input
 *   and output schemas; the annotations) cannot be cut without lying: a tool over one of those
 *   limits is left out whole.
 * - A source keeps at most `toolsPerSource` tools and `sourceChars` characters of tools, in the
 *   order it listed them; the rest are left out.
 *
 * Each cut or omission is one notice that names the tool and what happened, in words a person can
 * act on. Pure: no I/O, no clock; the tool as declared is never changed (the contract digest is
 * computed over it, so a change hidden past a cut still changes the digest and asks again).
 */
import type { JsonValue } from '../contracts/names.ts';
import type { ToolOperation } from '../contracts/sources.ts';
import { schemaExtent } from './schema-extent.ts';

/** Limits on what one source may declare; every real corpus tool (24 servers, 397 tools) passes unchanged. */
export interface DeclaredLimits {
  /**
   * Characters in a tool name. MCP 2025-11-25, Tools, "Tool Names": "Tool names SHOULD be between
   * 1 and 128 characters in length (inclusive)." (corpus: at most 40)
   */
  toolNameChars: number;
  /** Characters in a tool's title (corpus: at most 39). */
  titleChars: number;
  /** Characters in a tool's description (corpus: at most 6,993, firecrawl_monitor_create). */
  descriptionChars: number;
  /** Characters of an input or output schema as JSON (corpus: at most 12,112, mongodb export). */
  schemaChars: number;
  /**
   * Levels of nesting in an input or output schema, as JSON objects and arrays, each `$ref`
   * followed counting as one more (corpus: at most 21, mongodb explain).
   */
  schemaDepth: number;
  /**
   * JSON values an input or output schema amounts to once its `$ref`s are followed
   * (schema-extent.ts; corpus: at most 409, notion API-update-page-markdown). As many as its
   * characters may be: references cannot make a schema weigh more than the largest one without.
   */
  schemaValues: number;
  /** Characters of a tool's annotations as JSON (corpus: at most 139). */
  annotationsChars: number;
  /** Tools one source keeps (corpus: at most 118, gitlab2). */
  toolsPerSource: number;
  /** Characters of one source's kept tools as JSON, together (corpus: at most 160,653, gitlab2). */
  sourceChars: number;
  /** Characters of the server's instructions (corpus: at most 1,575). */
  instructionsChars: number;
  /** Characters of the server's name and of its version (corpus: at most 35). */
  serverChars: number;
}

export const DECLARED_LIMITS: Readonly<DeclaredLimits> = Object.freeze({
  toolNameChars: 128,
  titleChars: 256,
  descriptionChars: 16_384,
  schemaChars: 64 * 1024,
  schemaDepth: 64,
  schemaValues: 64 * 1024,
  annotationsChars: 4_096,
  toolsPerSource: 500,
  sourceChars: 512 * 1024,
  instructionsChars: 8_192,
  serverChars: 256,
});

/** A tool as a source lists it. */
export interface DeclaredTool {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema: { [key: string]: JsonValue };
  outputSchema?: { [key: string]: JsonValue } | undefined;
  annotations?: { [key: string]: JsonValue } | undefined;
  /** An OpenAPI tool's call binding (the hub's own reading; an MCP server's is dropped). */
  operation?: ToolOperation | undefined;
}

export interface DeclaredSource<T extends DeclaredTool> {
  tools: readonly T[];
  server?: { name: string; version: string } | undefined;
  instructions?: string | undefined;
}

/** What the hub keeps of a source: each kept tool as declared and as stored, and what was cut. */
export interface KeptSource<T extends DeclaredTool> {
  tools: { declared: T; kept: T }[];
  server?: { name: string; version: string } | undefined;
  instructions?: string | undefined;
  /** One line per cut or omission, naming the tool; empty when everything fit. */
  notices: string[];
}

/** Names shown in a notice are cut to this, and quoted (JSON escapes control characters). */
const SHOWN_NAME_CHARS = 60;
/** Left-out tools named in one notice; the rest are counted. */
const NAMES_LISTED = 3;
/** Notices about single tools kept; past these, one line counts the rest. */
const TOOL_NOTICES = 20;

/** Applies `limits` to a source's answer, in the order the source listed its tools. */
export function keepDeclared<T extends DeclaredTool>(
  source: DeclaredSource<T>,
  limits: Readonly<DeclaredLimits> = DECLARED_LIMITS,
): KeptSource<T> {
  const notices: string[] = [];
  const tools: { declared: T; kept: T }[] = [];
  const overCount: string[] = [];
  const overTotal: string[] = [];
  let total = 0;
  let unlisted = 0;
  const note = (line: string) => {
    if (notices.length < TOOL_NOTICES) notices.push(line);
    else unlisted++;
  };
  for (const [index, declared] of source.tools.entries()) {
    // Past the count (of tools declared, kept or not) nothing else is read of a tool: a source
    // listing a million costs a million names.
    if (index >= limits.toolsPerSource) {
      overCount.push(declared.name);
      continue;
    }
    const refusal = refuse(declared, limits);
    if (refusal !== undefined) {
      note(`left out tool ${shown(declared.name)}: ${refusal}`);
      continue;
    }
    const { tool: kept, cuts } = cutText(declared, limits);
    const size = JSON.stringify(kept).length;
    if (overTotal.length > 0 || total + size > limits.sourceChars) {
      overTotal.push(declared.name);
      continue;
    }
    total += size;
    for (const [part, from, to] of cuts) {
      note(`cut the ${part} of tool ${shown(declared.name)} ${cutFrom(from, to)}`);
    }
    tools.push({ declared, kept });
  }
  if (unlisted > 0) {
    notices.push(`cut or left out more: ${plural(unlisted, 'notice')} like those above are not listed`);
  }
  if (overCount.length > 0) notices.push(overCountNotice(overCount, limits));
  if (overTotal.length > 0) {
    notices.push(
      `left out ${plural(overTotal.length, 'tool')} from ${shown(overTotal[0] ?? '')} on: with them the ` +
        `source's tools take more than ${number(limits.sourceChars)} characters of JSON, the most the hub ` +
        `keeps for one source: ${listed(overTotal)}`,
    );
  }
  const result: KeptSource<T> = { tools, notices };
  if (source.server !== undefined) {
    const name = cut(source.server.name, limits.serverChars);
    const version = cut(source.server.version, limits.serverChars);
    if (name !== source.server.name)
      notices.push(`cut the server's name ${cutFrom(source.server.name, name)}`);
    if (version !== source.server.version)
      notices.push(`cut the server's version ${cutFrom(source.server.version, version)}`);
    result.server = { name, version };
  }
  if (source.instructions !== undefined) {
    result.instructions = cut(source.instructions, limits.instructionsChars);
    if (result.instructions !== source.instructions)
      notices.push(`cut the server's instructions ${cutFrom(source.instructions, result.instructions)}`);
  }
  return result;
}

/** The notice for tools declared past the most one source may declare. */
export function overCountNotice(
  names: readonly string[],
  limits: Readonly<DeclaredLimits> = DECLARED_LIMITS,
): string {
  return (
    `left out ${plural(names.length, 'tool')} after the first ${number(limits.toolsPerSource)}, ` +
    `the most one source may declare: ${listed(names)}`
  );
}

/** Why a tool cannot be kept at all, or undefined when it can. */
function refuse(tool: DeclaredTool, limits: Readonly<DeclaredLimits>): string | undefined {
  const length = tool.name.length;
  if (length === 0 || length > limits.toolNameChars) {
    return (
      `its name has ${plural(length, 'character')}, and MCP tool names have 1 to ` +
      `${number(limits.toolNameChars)}; a name cannot be shortened, since the hub calls the tool by it. ` +
      `Ask the server's author to rename it.`
    );
  }
  const schemas = [
    ['input schema', tool.inputSchema],
    ['output schema', tool.outputSchema],
  ] as const;
  for (const [part, schema] of schemas) {
    if (schema === undefined) continue;
    const extent = schemaExtent(schema, limits.schemaDepth, limits.schemaValues);
    if (extent.depth > limits.schemaDepth) {
      return `its ${part} nests deeper than ${number(limits.schemaDepth)} levels (with its $refs followed), the most the hub reads.`;
    }
    if (extent.values > limits.schemaValues) {
      return (
        `its ${part} amounts to more than ${number(limits.schemaValues)} JSON values once its $refs are ` +
        `followed, the most the hub reads.`
      );
    }
    const chars = JSON.stringify(schema).length;
    if (chars > limits.schemaChars) {
      return `its ${part} is ${number(chars)} characters of JSON; the hub keeps at most ${number(limits.schemaChars)}.`;
    }
  }
  if (tool.annotations !== undefined) {
    if (deeperThan(tool.annotations, limits.schemaDepth)) {
      return `its annotations nest deeper than ${number(limits.schemaDepth)} levels, the most the hub reads.`;
    }
    const chars = JSON.stringify(tool.annotations).length;
    if (chars > limits.annotationsChars) {
      return `its annotations are ${number(chars)} characters of JSON; the hub keeps at most ${number(limits.annotationsChars)}.`;
    }
  }
  return undefined;
}

/** The tool with its title and description cut to their limits, and each cut: [part, before, after]. */
function cutText<T extends DeclaredTool>(
  tool: T,
  limits: Readonly<DeclaredLimits>,
): { tool: T; cuts: [string, string, string][] } {
  const cuts: [string, string, string][] = [];
  const kept: T = { ...tool };
  if (tool.title !== undefined && tool.title.length > limits.titleChars) {
    kept.title = cut(tool.title, limits.titleChars);
    cuts.push(['title', tool.title, kept.title]);
  }
  if (tool.description !== undefined && tool.description.length > limits.descriptionChars) {
    kept.description = cut(tool.description, limits.descriptionChars);
    cuts.push(['description', tool.description, kept.description]);
  }
  return { tool: kept, cuts };
}

/**
 * `text` at most `max` characters long, ending in a marker that says how much was cut when it
 * was. Never splits a surrogate pair.
 */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = (n: number) => ` […cut by the hub: ${number(n)} more characters]`;
  // The marker's own length depends on the count it prints: start from the longest count (the
  // whole text), then keep what room a shorter count leaves.
  let keep = Math.max(0, max - marker(text.length).length);
  while (keep + 1 + marker(text.length - keep - 1).length <= max) keep++;
  const last = text.charCodeAt(keep - 1);
  if (keep > 0 && last >= 0xd800 && last <= 0xdbff) keep--;
  return `${text.slice(0, keep)}${marker(text.length - keep)}`.slice(0, max);
}

/** True when `value` nests JSON objects and arrays more than `max` levels deep (iterative: no stack to exhaust). */
export function deeperThan(value: JsonValue, max: number): boolean {
  const stack: [JsonValue, number][] = [[value, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, depth] = next;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

function cutFrom(before: string, after: string): string {
  return `from ${number(before.length)} to ${number(after.length)} characters`;
}

function shown(name: string): string {
  return JSON.stringify(name.length > SHOWN_NAME_CHARS ? `${name.slice(0, SHOWN_NAME_CHARS)}…` : name);
}

function listed(names: readonly string[]): string {
  const first = names.slice(0, NAMES_LISTED).map(shown).join(', ');
  return names.length > NAMES_LISTED
    ? `${first} and ${number(names.length - NAMES_LISTED)} more.`
    : `${first}.`;
}

function number(n: number): string {
  return n.toLocaleString('en-US');
}

function plural(n: number, word: string): string {
  return `${number(n)} ${n === 1 ? word : `${word}s`}`;
}
