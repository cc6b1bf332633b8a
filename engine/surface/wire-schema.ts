/**
 * The JSON Schema a client receives for a tool's input and output: the zod schema's own, less
 * what every model pays for on every request and learns nothing from (spec: The MCP surface, the
 * fixed cost):
 *
 * - `$schema`: MCP's default dialect is JSON Schema 2020-12, the one zod writes, so naming it on
 *   each of the four schemas only costs tokens;
 * - `additionalProperties: false` on an output: the hub writes its own results, a model never
 *   sends one;
 * - a bound that is the number type's own (`maximum: 9007199254740991`).
 *
 * Validation is zod's, unchanged: only what `tools/list` shows is shorter.
 */
type JsonObject = { [key: string]: unknown };

/** What the SDK passes to a Standard JSON Schema converter. */
interface ConvertOptions {
  readonly target: string;
  readonly libraryOptions?: Record<string, unknown>;
}

/** A schema that converts itself to JSON Schema (Standard JSON Schema, as zod's do). */
interface Convertible {
  readonly '~standard': {
    readonly jsonSchema: {
      input(options: ConvertOptions): JsonObject;
      output(options: ConvertOptions): JsonObject;
    };
  };
}

/**
 * `schema`'s Standard Schema alone (no zod methods): converting to the shorter JSON Schema above,
 * validating exactly as before.
 */
export function onTheWire<S extends Convertible>(schema: S): Pick<S, '~standard'> {
  const standard = schema['~standard'];
  const convert = standard.jsonSchema;
  return {
    '~standard': {
      ...standard,
      jsonSchema: {
        input: (options: ConvertOptions) => shorten(convert.input(options), false),
        output: (options: ConvertOptions) => shorten(convert.output(options), true),
      },
    },
  } as Pick<S, '~standard'>;
}

function shorten(schema: JsonObject, output: boolean): JsonObject {
  const { $schema: _dialect, ...rest } = schema;
  return strip(rest, output) as JsonObject;
}

function strip(value: unknown, output: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => strip(item, output));
  if (typeof value !== 'object' || value === null) return value;
  const result: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    if (output && key === 'additionalProperties' && child === false) continue;
    if (key === 'maximum' && child === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'minimum' && child === Number.MIN_SAFE_INTEGER) continue;
    result[key] = strip(child, output);
  }
  return result;
}
