/**
 * A namespace's tools as types: each tool's method name, input and output, and every named type
 * its schemas give, translated from the manifest alone. `describe` is stateless, so the model is
 * rebuilt from the stored manifest on each call and must come out the same every time: tools are
 * translated in manifest order, the roots named first (`<Tool>Input`; the output's `title`, else
 * `<Tool>Output`), then each tool's input and output in document order. Outputs with the same title
 * and schema are one type.
 *
 * Models are cached per manifest object (a WeakMap: a manifest is a value, never edited in place).
 */
import { parseToolAddress, toolIdentifier } from '../address.ts';
import { canonicalJson } from '../canonical-json.ts';
import type { JsonValue } from '../contracts/names.ts';
import type { Manifest, ManifestTool } from '../contracts/sources.ts';
import { breakUnguardedCycles } from './cycles.ts';
import { pascalCase } from './names.ts';
import { isHoistable, TypeRegistry, translateDocument } from './translate.ts';
import type { NamedType, TsType } from './ts-type.ts';

export interface ToolModel {
  tool: ManifestTool;
  /** The method name: the tool part of the address (`resolveLibraryId`). */
  method: string;
  /** The input's named type; its type is what the method's `input` parameter prints. */
  input: NamedType;
  /** The output as printed (the named output type, or the type itself when it is simple); undefined without an output schema. */
  output: TsType | undefined;
}

export interface NamespaceModel {
  namespace: string;
  tools: readonly ToolModel[];
  /** Every named type of the namespace, by name. */
  types: ReadonlyMap<string, NamedType>;
}

const models = new WeakMap<object, NamespaceModel>();

/** The model of a manifest's namespace. */
export function namespaceModel(manifest: Manifest): NamespaceModel {
  let model = models.get(manifest);
  if (model === undefined) {
    model = buildModel(manifest.namespace, manifest.tools);
    models.set(manifest, model);
  }
  return model;
}

/** The model of a namespace holding only `tool` (for a signature line without its manifest). */
export function singleToolModel(tool: ManifestTool): NamespaceModel {
  let model = models.get(tool);
  if (model === undefined) {
    model = buildModel(parseToolAddress(tool.address)?.namespace ?? '', [tool]);
    models.set(tool, model);
  }
  return model;
}

function buildModel(namespace: string, tools: readonly ManifestTool[]): NamespaceModel {
  const methods = tools.map((tool) => parseToolAddress(tool.address)?.tool ?? toolIdentifier(tool.name));
  const registry = new TypeRegistry(methods);
  /** Titled outputs by title and content: tools returning the same `Issue` return one type. */
  const titled = new Map<string, NamedType>();
  const roots = tools.map((tool, i) => {
    const base = pascalCase(methods[i] ?? tool.name);
    const input = registry.name(`${base}Input`, 'input');
    if (tool.outputSchema === undefined) return { input, output: undefined, shared: false };
    const title = typeof tool.outputSchema.title === 'string' ? tool.outputSchema.title.trim() : '';
    const name = title === '' ? `${base}Output` : pascalCase(title);
    const key = title === '' ? undefined : contentKey(name, tool.outputSchema);
    const seen = key === undefined ? undefined : titled.get(key);
    const output = seen ?? registry.name(name, 'output');
    if (key !== undefined) titled.set(key, output);
    return { input, output, shared: seen !== undefined };
  });
  const built = tools.map((tool, i) => {
    const root = roots[i] ?? { input: registry.name('Input', 'input'), output: undefined, shared: false };
    translateDocument(registry, tool.inputSchema, root.input);
    const { output } = root;
    if (output !== undefined && tool.outputSchema !== undefined && !root.shared) {
      translateDocument(registry, tool.outputSchema, output);
    }
    return { tool, method: methods[i] ?? tool.name, input: root.input, output };
  });
  breakUnguardedCycles(registry.types.values());
  return {
    namespace,
    tools: built.map((tool): ToolModel => ({ ...tool, output: tool.output && printedOutput(tool.output) })),
    types: registry.types,
  };
}

/** Equal for equal titles and schemas; undefined for a schema canonical JSON cannot carry (no sharing then). */
function contentKey(name: string, schema: JsonValue): string | undefined {
  try {
    return `${name}\n${canonicalJson(schema)}`;
  } catch {
    return undefined;
  }
}

/** A tool's output as printed: by name when it has structure (or recursion), else the type itself. */
function printedOutput(output: NamedType): TsType {
  return output.recursive || isHoistable(output.type) ? { kind: 'named', target: output } : output.type;
}
