/**
 * An OpenAPI document's operations as tools: one tool per operation, named from its
 * `operationId` (normalized as MCP tool names are) or else from its method and path; described by
 * its summary and description; its input schema one property per parameter (path, query, header,
 * cookie) plus `body`; its output schema the success response's JSON object schema; read-only
 * for GET, HEAD and OPTIONS. Each tool carries its `operation`: how a call becomes a request. An
 * operation whose request body the hub cannot encode (multipart, binary) is left out, saying why.
 */
import type { JsonValue } from '../../contracts/names.ts';
import type { ParameterStyle, ToolOperation } from '../../contracts/sources.ts';
import { HubError } from '../../errors.ts';
import type { ListedTool } from '../connector.ts';
import { isObject, type JsonObject, type OpenApiDocument } from './document.ts';
import { bindingStyle } from './parameter-style.ts';
import { Refs, type SchemaConversion } from './refs.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const READ_ONLY = new Set<string>(['get', 'head', 'options']);
/** Headers OpenAPI says a parameter may not define (the hub sets them itself). */
const RESERVED_HEADERS = new Set([
  'accept',
  'content-type',
  'authorization',
  'cookie',
  'content-length',
  'transfer-encoding',
  'connection',
  'host',
]);
/** A header or cookie name as HTTP allows it (an RFC 9110 token); a parameter named otherwise is left out. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const NAME_CHARS = 64;

/** The tools of a document, and a notice for each operation that was renamed or left out. */
export interface OperationTools {
  tools: ListedTool[];
  notices: string[];
}

/** A name made of the characters MCP tool names allow (letters, digits, `_`, `-`, `.`); empty when none are left. */
export function toolName(text: string): string {
  return text
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/^[_.-]+|[_.-]+$/g, '')
    .slice(0, NAME_CHARS);
}

/** `get /pet/{petId}` → `get_pet_petId`. */
function fallbackName(method: string, path: string): string {
  return toolName(`${method}_${path.replace(/[{}]/g, '').split('/').filter(Boolean).join('_')}`);
}

export function operationTools(document: OpenApiDocument): OperationTools {
  const refs = new Refs(document);
  const tools: ListedTool[] = [];
  const notices: string[] = [];
  const taken = new Set<string>();
  const paths = isObject(document.root.paths) ? document.root.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = refs.resolve(rawItem, `path ${path}`);
    if (!isObject(item) || !path.startsWith('/')) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const where = `operation ${method.toUpperCase()} ${path}`;
      const id = typeof operation.operationId === 'string' ? operation.operationId : '';
      let name = toolName(id);
      if (id !== '' && name === '')
        notices.push(
          `named ${where} by its method and path: its operationId ${JSON.stringify(id)} makes no tool name`,
        );
      if (name === '' || taken.has(name)) name = fallbackName(method, path);
      if (name === '' || taken.has(name)) {
        notices.push(
          `left out ${where}: it has no name of its own (no usable operationId, and its method and path name another tool)`,
        );
        continue;
      }
      const input = { name, method, path, item, operation, where };
      const unsent = unsentBody(refs, input);
      if (unsent) {
        notices.push(
          `left out ${where}: its request body is ${unsent.join(', ')}, which the hub does not send ` +
            '(it sends JSON, form fields (application/x-www-form-urlencoded) and text)',
        );
        continue;
      }
      taken.add(name);
      tools.push(operationTool(refs, input));
    }
  }
  return { tools, notices };
}

interface OperationInput {
  name: string;
  method: (typeof METHODS)[number];
  path: string;
  item: JsonObject;
  operation: JsonObject;
  where: string;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  schema: JsonValue;
  required: boolean;
  description?: string | undefined;
  /** How the binding writes it: its style and explode when not the defaults, or its media type. */
  writing: { style?: ParameterStyle; explode?: boolean; mediaType?: string };
}

function parameters(refs: Refs, input: OperationInput): Parameter[] {
  const byKey = new Map<string, Parameter>();
  const all = [
    ...(Array.isArray(input.item.parameters) ? input.item.parameters : []),
    ...(Array.isArray(input.operation.parameters) ? input.operation.parameters : []),
  ];
  for (const raw of all) {
    const p = refs.resolve(raw, input.where);
    if (!isObject(p) || typeof p.name !== 'string' || p.name === '') continue;
    const location = p.in;
    if (location !== 'path' && location !== 'query' && location !== 'header' && location !== 'cookie')
      continue;
    if (location === 'header' && RESERVED_HEADERS.has(p.name.toLowerCase())) continue;
    if ((location === 'header' || location === 'cookie') && !TOKEN.test(p.name)) continue;
    const content = isObject(p.content) ? Object.entries(p.content).find(([, m]) => isObject(m)) : undefined;
    const media = content?.[1];
    const schema = p.schema ?? (isObject(media) ? media.schema : undefined) ?? {};
    const parameter: Parameter = {
      name: p.name,
      in: location,
      schema,
      required: location === 'path' || p.required === true,
      description: typeof p.description === 'string' ? p.description : undefined,
      writing:
        p.schema === undefined && content !== undefined
          ? { mediaType: content[0] }
          : bindingStyle(location, p.style, p.explode),
    };
    // An operation's parameter overrides the path item's of the same name and place.
    byKey.set(`${location}\u0000${p.name}`, parameter);
  }
  return [...byKey.values()];
}

/** Whether the hub encodes a request body of `mediaType`: JSON, form fields, or text. */
function sendable(mediaType: string): boolean {
  return (
    /^application\/json\b/i.test(mediaType) ||
    /^[^/]+\/[^;]*\+json\b/i.test(mediaType) ||
    /^application\/x-www-form-urlencoded\b/i.test(mediaType) ||
    /^text\/[^*]/i.test(mediaType)
  );
}

/** The media types of an operation's request body when the hub encodes none of them; else undefined. */
function unsentBody(refs: Refs, input: OperationInput): string[] | undefined {
  const body = refs.resolve(input.operation.requestBody ?? null, input.where);
  if (!isObject(body) || !isObject(body.content)) return undefined;
  const types = Object.keys(body.content);
  return types.length > 0 && !types.some(sendable) ? types : undefined;
}

/** The request body's media type, JSON first, and its schema; undefined when the operation has none. */
function requestBody(
  refs: Refs,
  input: OperationInput,
): { mediaType: string; schema: JsonValue; required: boolean; description?: string } | undefined {
  const body = refs.resolve(input.operation.requestBody ?? null, input.where);
  if (!isObject(body) || !isObject(body.content)) return undefined;
  const types = Object.keys(body.content);
  const mediaType =
    types.find((t) => /^application\/json\b/i.test(t)) ??
    types.find((t) => /[/+]json\b/i.test(t)) ??
    types.find((t) => /^application\/x-www-form-urlencoded\b/i.test(t)) ??
    types.find(sendable);
  if (mediaType === undefined) return undefined;
  const media = body.content[mediaType];
  const json = /json/i.test(mediaType) || /x-www-form-urlencoded/i.test(mediaType);
  const schema =
    json && isObject(media) && media.schema !== undefined ? media.schema : json ? {} : { type: 'string' };
  const described = typeof body.description === 'string' ? { description: body.description } : {};
  return { mediaType, schema, required: body.required === true, ...described };
}

/** The first success response's JSON schema, when it is an object schema. */
function outputSchema(refs: Refs, input: OperationInput, schemas: SchemaConversion): JsonObject | undefined {
  const responses = isObject(input.operation.responses) ? input.operation.responses : {};
  const code = Object.keys(responses)
    .filter((c) => /^2(\d\d|XX)$/i.test(c))
    .sort()[0];
  if (code === undefined) return undefined;
  const response = refs.resolve(responses[code] ?? null, input.where);
  if (!isObject(response) || !isObject(response.content)) return undefined;
  const entry = Object.entries(response.content).find(([t]) => /json/i.test(t));
  const media = entry?.[1];
  if (!isObject(media) || media.schema === undefined) return undefined;
  const schema = schemas.component(media.schema);
  if (!isObject(schema)) return undefined;
  const isObjectSchema =
    schema.type === 'object' || (schema.type === undefined && isObject(schema.properties));
  return isObjectSchema ? { ...schema, type: 'object' } : undefined;
}

function describe(operation: JsonObject): string | undefined {
  const parts = [operation.summary, operation.description].filter(
    (p): p is string => typeof p === 'string' && p.trim() !== '',
  );
  const unique = parts.filter((p, i) => parts.indexOf(p) === i);
  return unique.length === 0 ? undefined : unique.join('\n\n');
}

function operationTool(refs: Refs, input: OperationInput): ListedTool {
  const schemas = refs.schemas(input.where);
  const properties: JsonObject = Object.create(null) as JsonObject;
  const required: string[] = [];
  const params = parameters(refs, input);
  const names = params.map((p) => p.name);
  const binding: ToolOperation = { method: input.method, path: input.path, parameters: [] };
  for (const p of params) {
    // The same name in two places (an `id` in the path and in the query): each says where.
    let property = names.filter((n) => n === p.name).length > 1 ? `${p.in}_${p.name}` : p.name;
    while (Object.hasOwn(properties, property)) property = `${property}_`;
    const schema = schemas.convert(p.schema);
    properties[property] =
      p.description && isObject(schema) && schema.description === undefined
        ? { ...schema, description: p.description }
        : schema;
    if (p.required) required.push(property);
    binding.parameters.push({ name: p.name, in: p.in, property, ...p.writing });
  }
  const body = requestBody(refs, input);
  if (body) {
    let property = 'body';
    while (Object.hasOwn(properties, property)) property = `${property}_`;
    const schema = schemas.convert(body.schema);
    properties[property] =
      body.description && isObject(schema) && schema.description === undefined
        ? { ...schema, description: body.description }
        : schema;
    if (body.required) required.push(property);
    binding.body = { property, mediaType: body.mediaType };
  }
  // Each schema carries the definitions it uses, and only those.
  const outputs = refs.schemas(input.where);
  const output = outputSchema(refs, input, outputs);
  const outputDefs = outputs.defs();
  const defs = schemas.defs();
  const inputSchema: JsonObject = { type: 'object', properties };
  if (required.length > 0) inputSchema.required = required;
  if (defs) inputSchema.$defs = defs;
  const tool: ListedTool = {
    name: input.name,
    inputSchema,
    annotations: READ_ONLY.has(input.method)
      ? { readOnlyHint: true }
      : input.method === 'delete'
        ? { readOnlyHint: false, destructiveHint: true }
        : { readOnlyHint: false },
    operation: binding,
  };
  const description = describe(input.operation);
  if (description !== undefined) tool.description = description;
  if (typeof input.operation.summary === 'string' && input.operation.summary.trim() !== '') {
    tool.title = input.operation.summary.trim();
  }
  if (output) tool.outputSchema = outputDefs ? { ...output, $defs: outputDefs } : output;
  if (input.operation.deprecated === true) tool.description = `Deprecated. ${tool.description ?? ''}`.trim();
  return tool;
}

/** Throws when a document yields no tool at all, saying why. */
export function someTools(result: OperationTools, location: string): OperationTools {
  if (result.tools.length === 0) {
    throw new HubError(
      'invalid_input',
      `the OpenAPI document at ${location} has no operations the hub can call. ${result.notices.join('; ')}`.trim(),
    );
  }
  return result;
}
