/**
 * Names every record uses: namespaces, tool addresses, connection names, contract digests, ids,
 * timestamps and JSON values.
 *
 * The hub's records, as zod 4 schemas. Every other module takes its types from these files
 * (`z.infer`), so a record has exactly one definition. Timestamps are epoch milliseconds from
 * the Clock port; ids are opaque strings.
 */
import { z } from 'zod';

/** Words a namespace may not take: JavaScript reserved words and the prelude's own globals. */
export const RESERVED_NAMESPACES: ReadonlySet<string> = new Set([
  // ECMAScript reserved words (strict mode) and literals
  'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do',
  'else', 'enum', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'implements', 'import',
  'in', 'instanceof', 'interface', 'let', 'new', 'null', 'package', 'private', 'protected', 'public',
  'return', 'static', 'super', 'switch', 'this', 'throw', 'true', 'try', 'typeof', 'var', 'void', 'while',
  'with', 'yield', 'arguments', 'eval', 'undefined',
  // globals the guest prelude defines or relies on
  'hub', 'console', 'globalThis', 'crypto', 'Math', 'Date', 'JSON', 'Promise', 'Object', 'Array', 'ToolError',
  'atob', 'btoa', 'performance', 'escape', 'unescape',
  // what the sandbox's global object inherits (`constructor`): `namespace in globalThis` is true, so
  // the prelude refuses the namespace and every execute of the hub would fail
  ...Object.getOwnPropertyNames(Object.prototype),
]); // biome-ignore format: a word list reads better packed

/** A source's namespace: lowercase, a JavaScript identifier, unique per hub (spec: Concepts, Namespace). */
export const Namespace = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,39}$/, 'a namespace is lowercase letters, digits and _, starting with a letter')
  .refine((name) => !RESERVED_NAMESPACES.has(name), 'that word is reserved in the sandbox; pick another');
export type Namespace = z.infer<typeof Namespace>;

/** A tool address `namespace.tool`; the tool part is a JavaScript identifier (see address.ts). */
export const ToolAddress = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,39}\.[A-Za-z_$][A-Za-z0-9_$]*$/, 'a tool address is namespace.tool');
export type ToolAddress = z.infer<typeof ToolAddress>;

/** A connection's name within its source (`work` in `github/work`). */
export const ConnectionName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'a connection name is lowercase letters, digits, - and _');

/** Lowercase hex SHA-256 of a tool's canonical contract (see contract-digest.ts). */
export const ContractDigest = z.string().regex(/^[0-9a-f]{64}$/, 'a contract digest is 64 hex digits');

export const Timestamp = z.number().int().nonnegative();
export const Id = z.string().min(1).max(100);

/** Any JSON value; schemas and arguments travel as JSON. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export const JsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(JsonValue),
    z.record(z.string(), JsonValue),
  ]),
);
export const JsonObject = z.record(z.string(), JsonValue);
