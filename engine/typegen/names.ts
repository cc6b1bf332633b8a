/**
 * Names of hoisted types. A name is derived from the manifest alone, so a later, stateless
 * `describe("github.Issue")` finds the same type again:
 *
 * - a tool's input: `<Tool>Input` (`CreateIssueInput`); its output: the output schema's `title`,
 *   else `<Tool>Output`;
 * - a `$defs`/`definitions` entry: its key (`richTextRequest` -> `RichTextRequest`);
 * - any other schema with a `title`: the title;
 * - anything else: the nearest `$defs` key (or the tool's input or output name) plus one word per
 *   step of the path from there (`properties/labels/items` under `create_issue`'s input ->
 *   `CreateIssueInputLabelsItem`).
 *
 * Every name is PascalCase, a valid identifier, and unique within its namespace: a taken name gets
 * `2`, `3`, … in the order the manifest's tools (and their schemas, in document order) reach it. A
 * namespace's tool identifiers are taken from the start, so `github.<x>` always means one thing.
 */
import type { Pointer } from './schema.ts';

/** `resolve-library-id` -> `ResolveLibraryId`, `richTextRequest` -> `RichTextRequest`; never empty. */
export function pascalCase(text: string): string {
  const words = text.split(/[^\p{L}\p{Nd}]+/u).filter((word) => word !== '');
  const joined = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
  if (joined === '') return 'Type';
  return /^\p{L}/u.test(joined) ? joined : `_${joined}`;
}

/**
 * The base name of the location `pointer` in a document whose root is named `rootName`: the nearest
 * `$defs`/`definitions` key (or the root) followed by one word per step after it.
 */
export function nameAt(rootName: string, pointer: Pointer): string {
  let name = rootName;
  for (let i = 0; i < pointer.length; i++) {
    const segment = pointer[i] ?? '';
    const next = pointer[i + 1] ?? '';
    const indexed = /^[0-9]+$/.test(next);
    switch (segment) {
      case '$defs':
      case 'definitions':
        name = pascalCase(next);
        i++;
        break;
      case 'properties':
        name += pascalCase(next);
        i++;
        break;
      case 'patternProperties':
        name += 'Value';
        i++;
        break;
      case 'additionalProperties':
        name += 'Value';
        break;
      case 'items':
      case 'prefixItems':
        name += indexed ? `Item${Number(next) + 1}` : 'Item';
        if (indexed) i++;
        break;
      case 'additionalItems':
        name += 'Item';
        break;
      case 'anyOf':
      case 'oneOf':
        name += `Option${Number(next) + 1}`;
        i++;
        break;
      case 'allOf':
        name += `Part${Number(next) + 1}`;
        i++;
        break;
      default:
        name += pascalCase(segment);
    }
  }
  return name;
}

/** Hands out names unique within one namespace. */
export class NameRegistry {
  readonly #taken = new Set<string>();

  /** Names nobody may take (the namespace's tool identifiers). */
  constructor(reserved: Iterable<string>) {
    for (const name of reserved) this.#taken.add(name);
  }

  /** `base` if free, else `base2`, `base3`, … */
  allocate(base: string): string {
    let name = base;
    for (let n = 2; this.#taken.has(name); n++) name = `${base}${n}`;
    this.#taken.add(name);
    return name;
  }
}
