/**
 * What a tool call returns to code (the sources issue): the call's `structuredContent` when
 * present; else the text content parsed as JSON when it is JSON; else the text; other content
 * (images, audio, resources, links) as small typed objects that name what they are without
 * carrying large payloads. An upstream `isError` becomes a failed outcome with the upstream's
 * message, which the guest sees as a ToolError.
 */
import type { JsonValue } from '../contracts/names.ts';

/** The parts of an MCP CallToolResult this module reads. */
export interface McpCallResult {
  content?: readonly McpContent[] | undefined;
  structuredContent?: { [key: string]: unknown } | undefined;
  isError?: boolean | undefined;
  /**
   * The HTTP status of an OpenAPI tool's answer (the hub's own reading, set by the OpenAPI
   * connector; an MCP server's result never carries one to the hub).
   */
  httpStatus?: number | undefined;
  /** The response headers of an OpenAPI tool's answer that may reach the code (http-call.ts). */
  httpHeaders?: { [name: string]: string } | undefined;
  /** What an OpenAPI tool's error body says went wrong, when it says it in a field APIs use. */
  httpHint?: string | undefined;
}

export type McpContent =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: 'resource_link'; uri: string; name?: string; mimeType?: string; description?: string }
  | { type: string; [key: string]: unknown };

export type ToolValue = { ok: true; value: JsonValue } | { ok: false; message: string };

/** Turns an MCP tool result into the value code receives, or the upstream's error message. */
export function toolValue(result: McpCallResult): ToolValue {
  const content = result.content ?? [];
  const texts = content.filter((c): c is { type: 'text'; text: string } => c.type === 'text' && 'text' in c);
  if (result.isError) {
    const message = texts
      .map((t) => t.text)
      .join('\n')
      .trim();
    return { ok: false, message: message || 'the tool reported an error without a message' };
  }
  if (result.structuredContent !== undefined) return { ok: true, value: toJson(result.structuredContent) };
  const others = content.filter((c) => c.type !== 'text').map(describeContent);
  if (others.length === 0) {
    if (texts.length === 0) return { ok: true, value: null };
    const text = texts.map((t) => t.text).join('\n');
    return { ok: true, value: parseJsonText(text) };
  }
  const parts: JsonValue[] = content.map((c) =>
    c.type === 'text' && 'text' in c ? parseJsonText(String(c.text)) : describeContent(c),
  );
  return { ok: true, value: parts.length === 1 ? (parts[0] ?? null) : parts };
}

/** Text that is a JSON document becomes that value; anything else stays text. */
export function parseJsonText(text: string): JsonValue {
  const trimmed = text.trim();
  if (trimmed === '' || !/^[[{"\d-]|^(true|false|null)$/.test(trimmed)) return text;
  try {
    return JSON.parse(trimmed) as JsonValue;
  } catch {
    return text;
  }
}

function describeContent(content: McpContent): JsonValue {
  switch (content.type) {
    case 'image':
    case 'audio': {
      const c = content as { type: string; data: string; mimeType: string };
      return { type: c.type, mimeType: c.mimeType, bytes: Math.floor((c.data.length * 3) / 4) };
    }
    case 'resource': {
      const r = (content as { resource: { uri: string; mimeType?: string; text?: string; blob?: string } })
        .resource;
      const out: { [key: string]: JsonValue } = { type: 'resource', uri: r.uri };
      if (r.mimeType) out.mimeType = r.mimeType;
      if (r.text !== undefined) out.text = r.text;
      if (r.blob !== undefined) out.bytes = Math.floor((r.blob.length * 3) / 4);
      return out;
    }
    case 'resource_link': {
      const l = content as { uri: string; name?: string; mimeType?: string; description?: string };
      return toJson({
        type: 'resource_link',
        uri: l.uri,
        name: l.name,
        mimeType: l.mimeType,
        description: l.description,
      });
    }
    default:
      return { type: String(content.type) };
  }
}

/** A structured value as JSON: undefined members dropped, non-JSON values made null. */
function toJson(value: unknown): JsonValue {
  return JSON.parse(JSON.stringify(value ?? null)) as JsonValue;
}
