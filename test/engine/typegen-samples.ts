/**
 * Inputs for checking that a tool's declared input type means what its schema means: values the
 * schema accepts (json-schema-faker, seeded, so every run checks the same values) must type-check,
 * and values it rejects in ways TypeScript can express must not:
 *
 * - a required member removed;
 * - a required member of one primitive type given another (`string` -> `42`, `number` -> `"42"`);
 * - a required member with a string enum given a string outside it;
 * - an unknown member added where `additionalProperties` is false.
 *
 * Rejections are built from an accepted value, one change each, so the change is why it is rejected.
 */
import { generateSync } from 'json-schema-faker';
import type { JsonValue } from '../../engine/contracts/names.ts';

type JsonObject = { [key: string]: JsonValue };

export interface Sample {
  value: JsonValue;
  /** True when the schema accepts the value (and so must TypeScript). */
  accept: boolean;
  /** What the sample is, for failure messages. */
  label: string;
}

/** Faker settings: every optional member, about half of them, none (each with its own seed). */
const VARIANTS = [
  { label: 'all optionals', options: { seed: 1, alwaysFakeOptionals: true } },
  { label: 'some optionals', options: { seed: 2, optionalsProbability: 0.5 } },
  { label: 'required only', options: { seed: 3, optionalsProbability: 0 } },
] as const;

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Accepted and rejected inputs for a tool's input schema. */
export function samplesFor(schema: JsonObject): Sample[] {
  const accepted = VARIANTS.map(({ label, options }) => ({
    value: generateSync(schema, { maxItems: 2, maxDepth: 12, ...options }) as JsonValue,
    accept: true,
    label: `faker, ${label}`,
  }));
  const full = accepted[0]?.value;
  return isObject(full) ? [...accepted, ...rejections(schema, full)] : accepted;
}

function rejections(schema: JsonObject, full: JsonObject): Sample[] {
  const properties = schema.properties;
  if (!isObject(properties) || schema.anyOf || schema.oneOf || schema.allOf || schema.$ref) return [];
  const required = Array.isArray(schema.required) ? schema.required.filter((n) => typeof n === 'string') : [];
  const samples: Sample[] = [];
  const reject = (label: string, change: (value: JsonObject) => void) => {
    const value = structuredClone(full);
    change(value);
    samples.push({ value, accept: false, label });
  };
  for (const name of required) {
    const property = properties[name];
    if (!isObject(property) || !Object.hasOwn(full, name)) continue;
    reject(`without required ${name}`, (value) => delete value[name]);
    const plain = !property.anyOf && !property.oneOf && !property.allOf && !property.$ref && !property.const;
    if (plain && Array.isArray(property.enum)) {
      if (property.enum.every((v) => typeof v === 'string')) {
        reject(`${name} outside its enum`, (value) => (value[name] = 'not-one-of-the-enum'));
      }
    } else if (plain && typeof property.type === 'string') {
      const other = { string: 42, number: '42', integer: '42', boolean: 'true' }[property.type];
      if (other !== undefined) reject(`${name} of the wrong type`, (value) => (value[name] = other));
    }
  }
  if (schema.additionalProperties === false && schema.patternProperties === undefined) {
    reject('with an unknown member', (value) => (value.notAMember = true));
  }
  return samples;
}
