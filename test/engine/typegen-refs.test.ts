/**
 * JSON Schema -> TypeScript for references (`$ref`, `$defs`/`definitions`, JSON pointers, anchors,
 * recursion and cycles), annotations as JSDoc, and schemas that are not valid, as exact strings.
 * None of these is an error: an answer always comes back and compiles, typed loosely at a bad spot
 * with a comment saying why (never a silent `unknown`). The last test compiles every answer given.
 */
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../engine/contracts/names.ts';
import {
  answer,
  compilesEveryAnswer,
  inputType,
  manifestOf,
  propertyType,
  type Schema,
} from './typegen-fixtures.ts';

const UNTYPED =
  "/** @returns The tool's structured content when present, else its text parsed as JSON when it is JSON, else the text. */";

/** The answer for a tool `t` with this input schema in namespace `ns`. */
const declarations = (inputSchema: Schema) =>
  answer(
    [manifestOf('ns', [{ name: 't', inputSchema: inputSchema as { [key: string]: JsonValue } }])],
    ['ns.t'],
  );

describe('JSDoc', () => {
  it('shows description, @deprecated, @default and @format, and no comment can be ended early', () => {
    const properties = {
      n: {
        type: 'integer',
        description: 'Page size.\r\nAt most 100.',
        default: 30,
        format: 'int32',
        deprecated: true,
      },
      when: { type: 'string', format: 'date-time' },
      evil: { type: 'string', description: 'ends */ here /* and', default: '*/' },
    };
    expect(inputType({ type: 'object', properties })).toBe(
      [
        '{',
        '\t\t/**',
        '\t\t * Page size.',
        '\t\t * At most 100.',
        '\t\t * @deprecated',
        '\t\t * @default 30',
        '\t\t * @format int32',
        '\t\t */',
        '\t\tn?: number;',
        '\t\t/** @format date-time */',
        '\t\twhen?: string;',
        '\t\t/**',
        '\t\t * ends *\\/ here /* and',
        '\t\t * @default "*\\/"',
        '\t\t */',
        '\t\tevil?: string;',
        '\t}',
      ].join('\n'),
    );
  });

  it("takes a $ref's own description first, else the description of what it points to when that prints in place", () => {
    const schema = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/id', description: 'Own words.' }, b: { $ref: '#/$defs/id' } },
      $defs: { id: { type: 'string', description: 'An id.', format: 'uuid' } },
    };
    expect(inputType(schema)).toBe(
      '{\n\t\t/** Own words. */\n\t\ta?: string;\n\t\t/**\n\t\t * An id.\n\t\t * @format uuid\n\t\t */\n\t\tb?: string;\n\t}',
    );
  });
});

describe('$ref', () => {
  it('declares $defs and definitions entries by their keys, and inlines the ones that are only scalars or literals', () => {
    expect(
      declarations({
        type: 'object',
        properties: {
          owner: { $ref: '#/$defs/user' },
          tags: { type: 'array', items: { $ref: '#/definitions/Tag' } },
          id: { $ref: '#/$defs/id' },
        },
        required: ['owner'],
        $defs: {
          user: {
            type: 'object',
            description: 'A person.',
            properties: { login: { type: 'string' } },
            required: ['login'],
          },
          id: { type: 'integer' },
        },
        definitions: { Tag: { type: 'string', enum: ['a', 'b'] } },
      }),
    ).toBe(`declare const ns: {
\t${UNTYPED}
\tt(input: { owner: ns.User; tags?: ("a" | "b")[]; id?: number }, options?: CallOptions): Promise<unknown>;
};
declare namespace ns {
\t/** A person. */
\tinterface User { login: string }
}
`);
  });

  it('resolves JSON-pointer escapes (~0, ~1), percent-encoding and plain-name anchors', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { $ref: '#/$defs/a~1b' },
        b: { $ref: '#/$defs/c~0d' },
        c: { $ref: '#/$defs/with%20space' },
        d: { $ref: '#point' },
        e: { $ref: '#/properties/a' },
      },
      $defs: {
        'a/b': { type: 'string' },
        'c~d': { type: 'number' },
        'with space': { type: 'boolean' },
        p: { $anchor: 'point', type: 'null' },
      },
    };
    expect(inputType(schema)).toBe('{ a?: string; b?: number; c?: boolean; d?: null; e?: string }');
  });

  it('says where a $ref does not resolve, instead of a silent unknown', () => {
    expect(propertyType({ $ref: '#/$defs/missing' })).toBe('unknown /* unresolved $ref #/$defs/missing */');
    expect(propertyType({ $ref: 'https://example.com/s.json#/a' })).toBe(
      'unknown /* unresolved $ref https://example.com/s.json#/a (only local references resolve) */',
    );
    expect(propertyType({ $ref: '#/$defs/a*/b' })).toBe('unknown /* unresolved $ref #/$defs/a*\\/b */');
  });

  it('applies $ref siblings alongside it (2020-12)', () => {
    expect(
      declarations({
        type: 'object',
        properties: {
          p: { allOf: [{ $ref: '#/definitions/Base' }, { properties: { extra: { type: 'boolean' } } }] },
        },
        definitions: {
          Base: {
            title: 'Base thing',
            type: 'object',
            properties: { id: { type: 'string' } },
            required: ['id'],
          },
        },
      }),
    ).toBe(`declare const ns: {
\t${UNTYPED}
\tt(input: { p?: ns.Base & { extra?: boolean } }, options?: CallOptions): Promise<unknown>;
};
declare namespace ns {
\tinterface Base { id: string }
}
`);
  });

  it('declares recursive types by name: the root, a $defs entry, a JSON value', () => {
    expect(
      declarations({ type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } }, required: ['name'] }),
    ).toBe(`declare const ns: {
\t${UNTYPED}
\tt(input: { name: string; children?: ns.TInput[] }, options?: CallOptions): Promise<unknown>;
};
declare namespace ns {
\tinterface TInput { name: string; children?: TInput[] }
}
`);
    const json = { anyOf: [{ type: ['string', 'number', 'boolean', 'null'] }, { type: 'array', items: { $ref: '#/$defs/json' } }, { type: 'object', additionalProperties: { $ref: '#/$defs/json' } }] };
    const node = { type: 'object', properties: { value: { $ref: '#/$defs/json' }, next: { anyOf: [{ $ref: '#/$defs/node' }, { type: 'null' }] } }, required: ['value'] };
    expect(declarations({ type: 'object', properties: { head: { $ref: '#/$defs/node' } }, $defs: { node, json } })).toBe(`declare const ns: {
\t${UNTYPED}
\tt(input: { head?: ns.Node }, options?: CallOptions): Promise<unknown>;
};
declare namespace ns {
\tinterface Node { value: Json; next?: Node | null }
\ttype Json = string | number | boolean | Json[] | { [key: string]: Json } | null;
}
`);
  }); // biome-ignore format: schemas on one line read better here

  it('cuts $ref cycles with no structure between them, and says so', () => {
    expect(
      declarations({ type: 'object', properties: { a: { $ref: '#/$defs/a' } }, $defs: { a: { $ref: '#/$defs/b' }, b: { anyOf: [{ $ref: '#/$defs/a' }, { type: 'string' }] } } }),
    ).toBe(`declare const ns: {
\t${UNTYPED}
\tt(input: { a?: ns.A }, options?: CallOptions): Promise<unknown>;
};
declare namespace ns {
\ttype A = unknown /* $ref cycle with no structure */ | string;
}
`);
    expect(inputType({ type: 'object', properties: { a: { $ref: '#/properties/b' }, b: { $ref: '#/properties/a' } } })).toBe('{ a?: ns.TInputA; b?: ns.TInputA }');
    expect(inputType({ $ref: '#' })).toBe('unknown /* $ref cycle with no structure */');
  }); // biome-ignore format: schemas on one line read better here
});

describe('names that are also global names', () => {
  it('stay in their namespace, so Promise, Array and CallOptions keep meaning what they mean', () => {
    const manifest = manifestOf('ns', [
      {
        name: 't',
        inputSchema: {
          type: 'object',
          properties: { b: { $ref: '#/$defs/CallOptions' }, c: { type: 'array', items: { $ref: '#/$defs/Array' } } },
          $defs: { CallOptions: { type: 'object', properties: { x: { type: 'number' } } }, Array: { type: 'object', properties: { length: { type: 'string' } } } },
        },
        outputSchema: { title: 'Promise', type: 'object', properties: { settled: { type: 'boolean' } } },
      },
    ]); // biome-ignore format: schemas read better packed
    expect(answer([manifest], ['ns'])).toBe(`declare const ns: {
\tt(input: { b?: ns.CallOptions; c?: ns.Array[] }, options?: CallOptions): Promise<ns.Promise>;
};
declare namespace ns {
\tinterface CallOptions { x?: number }
\tinterface Array { length?: string }
\tinterface Promise { settled?: boolean }
}
`);
  });
});

describe('schemas that are not valid', () => {
  it.each([
    [{ type: 'str' }, 'unknown /* invalid type "str" */'],
    [{ type: ['string', 'str'] }, 'unknown /* invalid type ["string","str"] */'],
    [{ type: [] }, 'unknown /* invalid type [] */'],
    ['string', 'unknown /* not a schema: "string" */'],
    [5, 'unknown /* not a schema: 5 */'],
    [null, 'unknown /* not a schema: null */'],
    [{ $ref: '#/$defs/x', required: ['x'] }, 'unknown /* unresolved $ref #/$defs/x */ & { x: unknown }'],
  ])('%j is typed loosely at that spot: %s', (schema, type) => {
    expect(propertyType(schema)).toBe(type);
  });

  it('ignores keywords of the wrong shape', () => {
    expect(
      inputType({
        type: 'object',
        properties: { a: { type: 'string' } },
        required: 'a',
        allOf: {},
        anyOf: [],
      }),
    ).toBe('{ a?: string }');
  });
});

compilesEveryAnswer(15);
