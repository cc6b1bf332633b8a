/**
 * The schemas as `tools/list` carries them (engine/surface/wire-schema.ts): shorter JSON Schema,
 * the same validation. Every input a client might send is judged alike by the zod schema and by
 * what the SDK is given; the JSON Schema loses only `$schema`, an output's
 * `additionalProperties: false` and the number type's own bounds.
 */
import { describe, expect, it } from 'vitest';
import { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { DescribeArgs, ExecuteArgs, SearchArgs } from '../../engine/surface/inputs.ts';
import { onTheWire } from '../../engine/surface/wire-schema.ts';

const target = { target: 'draft-2020-12' };
const samples: unknown[] = [
  {},
  { query: 'create an issue' },
  { query: 'x'.repeat(201) },
  { query: 'a', limit: 0 },
  { query: 'a', limit: 25, namespace: 'github' },
  { targets: [] },
  { targets: ['github.createIssue'] },
  { code: 'return 1' },
  { resume: 'run_1' },
  { code: 1 },
  null,
  'text',
];

describe('schemas on the wire', () => {
  for (const [name, schema] of [
    ['search', SearchArgs],
    ['describe', DescribeArgs],
    ['execute', ExecuteArgs],
  ] as const) {
    it(`${name}: validates every sample as zod does, and names no dialect`, async () => {
      const wire = onTheWire(schema);
      for (const sample of samples) {
        const ours = await wire['~standard'].validate(sample);
        const zods = await schema['~standard'].validate(sample);
        expect('issues' in ours && ours.issues !== undefined).toBe(
          'issues' in zods && zods.issues !== undefined,
        );
      }
      const json = wire['~standard'].jsonSchema.input(target);
      expect(json).not.toHaveProperty('$schema');
      const { $schema: _dialect, ...rest } = schema['~standard'].jsonSchema.input(target);
      expect(json).toEqual(rest);
    });
  }

  it('execute output: no dialect, no additionalProperties: false, no MAX_SAFE_INTEGER bound', () => {
    const json = JSON.stringify(onTheWire(ExecuteEnvelope)['~standard'].jsonSchema.output(target));
    expect(json).not.toContain('$schema');
    expect(json).not.toContain('"additionalProperties":false');
    expect(json).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(json).toContain('"retryAfterMs"');
    expect(json).toContain('"awaiting_approval"');
  });
});
