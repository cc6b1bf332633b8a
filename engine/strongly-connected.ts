/**
 * Tarjan's strongly connected components: the sets of nodes of a directed graph that each reach
 * one another, every node in exactly one (a node on no cycle is a set of its own). Used where the
 * code must find cycles: `$ref` cycles in generated types (typegen/cycles.ts), and the tests' loops
 * among folders (test/folder-graph.ts). Components come out in reverse topological order: a
 * component comes after every component it reaches.
 */
export function stronglyConnected<T>(nodes: Iterable<T>, next: (node: T) => Iterable<T>): T[][] {
  const index = new Map<T, number>();
  const low = new Map<T, number>();
  const stack: T[] = [];
  const onStack = new Set<T>();
  const components: T[][] = [];

  const connect = (node: T): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    for (const to of next(node)) {
      if (!index.has(to)) {
        connect(to);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(to) ?? 0));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(to) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: T[] = [];
      for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
        onStack.delete(top);
        component.push(top);
        if (top === node) break;
      }
      components.push(component);
    }
  };

  for (const node of nodes) if (!index.has(node)) connect(node);
  return components;
}
