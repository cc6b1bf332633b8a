/**
 * Bringing in an OpenAPI document's same-origin references (engine/connectors/openapi/bundle.ts) keeps every
 * key the documents wrote as their own, `__proto__` among them: a schema holding a property named
 * `__proto__` keeps it, and inherits nothing from it (found in review, the class of bug
 * engine/secrets/scrub.ts had).
 */
import { describe, expect, it } from 'vitest';
import { bundleReferences } from '../../engine/connectors/openapi/bundle.ts';
import { readDocument } from '../../engine/connectors/openapi/document.ts';

const MAIN = 'https://api.example/openapi.json';
const OTHER = 'https://api.example/schemas.json';

describe('bundling references', () => {
  it('keeps a key named __proto__ as the document’s own, in the document and in one it refers to', async () => {
    const schema =
      '{"type":"object","properties":{"__proto__":{"type":"string","description":"inherit me"}}}';
    const main = `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{"/a":{"get":{"operationId":"a","responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"schemas.json#/Thing"}}}}}}}},"components":{"schemas":{"Local":${schema}}}}`;
    const bundled = await bundleReferences(readDocument(main, MAIN), async (url) => {
      expect(url).toBe(OTHER);
      return `{"Thing":${schema}}`;
    });
    const text = JSON.stringify(bundled.root);
    // Both schemas, the local one and the one brought in, keep the property, as data.
    expect(text.split('"__proto__":{"type":"string","description":"inherit me"}')).toHaveLength(3);
    const local = (bundled.root as { components: { schemas: { Local: { properties: object } } } }).components
      .schemas.Local.properties;
    expect(Object.hasOwn(local, '__proto__')).toBe(true);
    expect((local as { type?: unknown }).type).toBeUndefined();
  });
});
