/**
 * A room of the upstream stand-in (test/fixtures/upstream-standin.ts) as a workerd test uses
 * it: its MCP URL for a source, what reached it, and the changes and releases the test makes.
 * Every request goes out through the Worker's fetch, which miniflare answers in Node.
 */
import { type RoomChange, UPSTREAM_ORIGIN } from '../fixtures/upstream-standin.ts';

export interface UpstreamRoom {
  /** The room's origin and path prefix: `https://upstream.invariants.example/<room>`. */
  base: string;
  /** Its counting board over Streamable HTTP. */
  mcpUrl: string;
  /** Its OpenAPI document (`thing` and `redirect`, an API key in `x-api-key`), its server the room. */
  documentUrl: string;
  /** Every line the room counted, in order (`post <text>`, `started <text>`, `GET /path`, …). */
  calls(): Promise<string[]>;
  /** The API key each request to the room's HTTP API carried (`''` for none), in order. */
  keys(): Promise<string[]>;
  /** The `post <text>` lines alone. */
  posts(): Promise<string[]>;
  /** Changes the board's tools from now on. */
  change(change: RoomChange): Promise<void>;
  /** Lets held `slow_post` calls finish. */
  release(): Promise<void>;
}

/** A fresh room, named after `label` and a random suffix. */
export function upstreamRoom(label: string): UpstreamRoom {
  const base = `${UPSTREAM_ORIGIN}/${label}-${crypto.randomUUID().slice(0, 8)}`;
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${base}${path}`, { method: 'POST', body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`the upstream stand-in answered ${response.status} to ${path}`);
  };
  const counted = async () =>
    (await (await fetch(`${base}/calls`)).json()) as { calls: string[]; keys: string[] };
  const calls = async () => (await counted()).calls;
  return {
    base,
    mcpUrl: `${base}/mcp`,
    documentUrl: `${base}/openapi.json`,
    calls,
    keys: async () => (await counted()).keys,
    posts: async () => (await calls()).filter((line) => line.startsWith('post ')),
    change: (change) => post('/change', change),
    release: () => post('/release', {}),
  };
}
