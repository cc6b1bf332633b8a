/**
 * What a `describe` target names: a namespace (`github`), a tool address (`github.createIssue`;
 * the source's own tool name works too, `notion.API-get-user`) or a type named in an earlier
 * answer (`github.Issue`). Targets resolve in the order given into the tools and types to show,
 * each once. Anything unknown is one `not_found` error naming every bad target with its closest
 * candidates, so a model fixes them all in one go.
 */
import { namespaceOf } from '../address.ts';
import { closest } from '../closest.ts';
import type { Manifest } from '../contracts/sources.ts';
import { HubError } from '../errors.ts';
import type { Item } from './answer.ts';
import { type NamespaceModel, namespaceModel } from './model.ts';

export const MAX_TARGETS = 10;

const SHAPES =
  'A target is a namespace (github), a tool address (github.createIssue) or a type name from an earlier answer (github.Issue)';

export interface Resolved {
  /** The tools and types to show, in target order, each once. */
  items: Item[];
  /** Namespaces named as targets that have no tools. */
  empty: string[];
}

/** What `targets` name. */
export function resolveTargets(manifests: readonly Manifest[], targets: readonly string[]): Resolved {
  if (targets.length === 0 || targets.length > MAX_TARGETS) {
    throw new HubError(
      'invalid_input',
      `describe takes 1 to ${MAX_TARGETS} targets; got ${targets.length}. ${SHAPES}; describe more in several calls.`,
    );
  }
  const byNamespace = new Map(manifests.map((m) => [m.namespace, m]));
  const items: Item[] = [];
  const seen = new Set<unknown>();
  const add = (item: Item) => {
    const key = item.kind === 'tool' ? item.tool : item.type;
    if (!seen.has(key)) {
      seen.add(key);
      items.push(item);
    }
  };
  const problems: string[] = [];
  const empty: string[] = [];

  for (const raw of targets) {
    const target = raw.trim();
    if (target === '') throw new HubError('invalid_input', `a describe target is empty. ${SHAPES}.`);
    const ns = namespaceOf(target);
    const manifest = byNamespace.get(ns);
    if (manifest === undefined) {
      problems.push(`no namespace "${ns}"${suggest(closest(ns, byNamespace.keys()))}`);
      continue;
    }
    const model = namespaceModel(manifest);
    if (ns === target) {
      for (const tool of model.tools) add({ kind: 'tool', model, tool });
      if (model.tools.length === 0) empty.push(ns);
      continue;
    }
    const rest = target.slice(ns.length + 1);
    const found = lookup(model, rest);
    if (found) add(found);
    else {
      // Tools and the types answers name; a tool's input type is named only when it cannot be shown.
      const types = [...model.types.values()].filter((t) => t.origin !== 'input').map((t) => t.name);
      const candidates = [...model.tools.map((t) => t.method), ...types];
      const near = closest(rest, candidates).map((name) => `${ns}.${name}`);
      problems.push(`no tool or type "${target}"${suggest(near)}`);
    }
  }
  if (problems.length > 0) {
    throw new HubError(
      'not_found',
      `describe found ${problems.join('; ')}. ${SHAPES}; call search to find tools by what they do.`,
    );
  }
  return { items, empty };
}

function lookup(model: NamespaceModel, name: string): Item | undefined {
  const tool = model.tools.find((t) => t.method === name) ?? model.tools.find((t) => t.tool.name === name);
  if (tool) return { kind: 'tool', model, tool };
  const type = model.types.get(name);
  return type ? { kind: 'type', model, type } : undefined;
}

function suggest(names: readonly string[]): string {
  return names.length === 0 ? '' : ` (did you mean ${names.join(', ')}?)`;
}
