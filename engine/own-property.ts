/**
 * Copying a key of JSON someone else wrote into an object the hub builds. A plain assignment of a
 * key named `__proto__` sets the object's prototype instead: the key is dropped and the object
 * inherits whatever the value holds (`type`, `properties`, …). `setOwn` always makes an own,
 * enumerable property, as JSON.parse does.
 */
export function setOwn(into: Record<string | number, unknown>, key: string | number, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
  else into[key] = value;
}
