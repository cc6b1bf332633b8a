/**
 * The declarations of the guest's own `hub` helpers, which `describe("hub")` (or
 * `describe("hub.read")`) answers beside a source's: `hub` is a reserved namespace, so no
 * source's declarations can take its place. The helpers themselves are the prelude's
 * (engine/prelude/source/bridge.ts); a large tool result's handle is result-handles.ts's.
 */

/** `describe` targets that name the hub's helpers. */
export const isHubTarget = (target: string): boolean => {
  const trimmed = target.trim();
  return trimmed === 'hub' || trimmed.startsWith('hub.');
};

export const HUB_DECLARATIONS = `declare const hub: {
  /** Find tools by what you want to do. */
  search(query: string, options?: { namespace?: string; limit?: number }): Promise<string>;
  /** TypeScript declarations for tools, namespaces or types, as the describe tool gives them. */
  describe(targets: string | string[]): Promise<string>;
  /**
   * Reads a large tool result, which a call returns as a ResultHandle instead of its value: a slice of
   * its text by UTF-8 byte offset and length (at most 65536 bytes; both ends move back to a
   * character's start, so slices read one after another join exactly), or the value at a path of
   * its JSON ("items[0].title"). Only inside the run whose call returned the handle.
   */
  read(handle: ResultHandle | string, options?: { offset?: number; length?: number }): Promise<string>;
  read(handle: ResultHandle | string, options: { path: string }): Promise<unknown>;
};
/** What a tool call returns in place of a result over 64 KB of JSON. */
interface ResultHandle {
  handle: string;
  /** The result's size in UTF-8 bytes. */
  bytes: number;
  /** "application/json", or "text/plain" for a text result. */
  mediaType: string;
  /** The start of the result's text. */
  preview: string;
}
`;
