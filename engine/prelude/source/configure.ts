/**
 * Prelude fragment: the end of the prelude. Everything before is the same for every attempt;
 * `configure(host, configText)` is what makes it one attempt's: the host primitives, the seed,
 * the clock origin, the budgets and the namespaces. It runs once (a second call throws), and
 * returns the guest's three entry points: `run(main)`, `deliver(id, answerText)` and `fire(id)`.
 * None of them is ever a global: only the driver holds them.
 */
export const CONFIGURE = String.raw`
return function configure(primitives, configText) {
  if (host !== null) throw new Error('the prelude is configured once');
  host = primitives;
  config = parseJson(configText);
  seedRandom(String(config.seed));
  clockOrigin = Number(config.clockOrigin);
  LOG_BYTES = Number(config.logBytes);
  MAX_CONCURRENT = Math.max(1, Number(config.maxConcurrent));
  RESULT_BYTES = Number(config.resultBytes);
  namespaces = config.namespaces;
  for (const namespace of Object.keys(namespaces)) {
    if (namespace in G || ALLOWED.has(namespace) || hasOwn.call(ours, namespace)) {
      throw new Error('the namespace ' + namespace + ' collides with a sandbox global');
    }
    for (const tool of namespaces[namespace]) addresses.push(namespace + '.' + tool);
  }
  for (const namespace of Object.keys(namespaces)) {
    defineProperty(G, namespace, { value: namespaceObject(namespace), writable: false, enumerable: false, configurable: false });
  }
  return freeze({ run, deliver, fire });
};
`;
