/**
 * Prelude fragment: the opening. Reads the driver's config and captures the intrinsics the rest
 * of the prelude uses, before any model code could replace them (the model's code runs after
 * the whole prelude, but a later call into prelude functions must not depend on what the model
 * did to `JSON` or `Array.prototype` meanwhile).
 *
 * Fragments are plain JavaScript in one function scope. Nothing here depends on the attempt:
 * `host` and `config` stay null until `configure` (configure.ts) sets them, so a driver may
 * evaluate the prelude before it knows the attempt. No template literals inside (this text is
 * itself one), no bundler helpers: the text runs as it is in QuickJS and in V8.
 */
export const SETUP = String.raw`
'use strict';
const G = globalThis;
let host = null;
let config = null;
const stringify = JSON.stringify;
const parseJson = JSON.parse;
const freeze = Object.freeze;
const defineProperty = Object.defineProperty;
const getPrototypeOf = Object.getPrototypeOf;
const ownKeys = Reflect.ownKeys;
const hasOwn = Object.prototype.hasOwnProperty;
const isArray = Array.isArray;
const NativePromise = Promise;
const promiseThen = Promise.prototype.then;
const then = (promise, onValue, onError) => promiseThen.call(promise, onValue, onError);
const imul = Math.imul;
const floor = Math.floor;
const fromCharCode = String.fromCharCode;

function deepFreeze(value) {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return value;
  if (Object.isFrozen(value)) return value;
  freeze(value);
  for (const key of ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor && 'value' in descriptor) deepFreeze(descriptor.value);
  }
  return value;
}

/** UTF-8 bytes of a string, without allocating. */
function utf8Length(text) {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) { bytes += 4; i++; } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** A string for any thrown or logged value, never throwing itself. */
function safeString(value) {
  try {
    return String(value);
  } catch (error) {
    return '[a value that cannot be shown]';
  }
}
`;
