/**
 * `$ref` cycles with no structure between them (`a: {$ref: b}`, `b: {$ref: a}`, or `a: anyOf[a, …]`)
 * describe no value, and TypeScript rejects the aliases they would print (`type A = B; type B = A`:
 * "circularly references itself"). A reference is guarded when it sits under an object member, an
 * array element or a tuple element, where TypeScript defers it; a cycle of unguarded references
 * (through unions and intersections only) is cut: each such reference becomes `unknown` with a
 * comment. Recursion through structure (trees, linked lists, JSON values) is left alone.
 */
import { stronglyConnected } from '../strongly-connected.ts';
import { loose, type NamedType, type TsType } from './ts-type.ts';

const CYCLE = '$ref cycle with no structure';

/** The named types `type` reaches without passing through structure. */
function unguarded(type: TsType): NamedType[] {
  switch (type.kind) {
    case 'named':
      return [type.target];
    case 'union':
    case 'intersection':
      return type.members.flatMap(unguarded);
    default:
      return [];
  }
}

function cut(type: TsType, cycle: ReadonlySet<NamedType>): TsType {
  switch (type.kind) {
    case 'named':
      return cycle.has(type.target) ? loose(CYCLE) : type;
    case 'union':
    case 'intersection':
      return { kind: type.kind, members: type.members.map((member) => cut(member, cycle)) };
    default:
      return type;
  }
}

/** Cuts every unguarded cycle among `types` (their strongly connected components). */
export function breakUnguardedCycles(types: Iterable<NamedType>): void {
  const components = stronglyConnected(types, (node) => unguarded(node.type));
  for (const component of components) {
    const [only] = component;
    const cyclic = component.length > 1 || (only !== undefined && unguarded(only.type).includes(only));
    if (!cyclic) continue;
    const members = new Set(component);
    for (const node of component) node.type = cut(node.type, members);
  }
}
