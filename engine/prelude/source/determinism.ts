/**
 * Prelude fragment: determinism (spec: "Inside the sandbox"). The same seed and the same answers
 * give the same values on every attempt and in both drivers, because every value here comes
 * from 32-bit integer arithmetic that QuickJS and V8 compute identically.
 *
 * - Randomness: sfc32, seeded from the run's seed hashed with cyrb128, warmed up 15 rounds.
 *   `Math.random` takes 53 bits from two draws; `crypto.getRandomValues` and
 *   `crypto.randomUUID` take bytes from the same stream. Predictable to whoever knows the seed,
 *   which is the point: it is not for secrets, and the sandbox holds none.
 * - Time: a logical clock. `Date` (no arguments, `Date()`, `Date.now()`) and `performance.now()`
 *   read `clockOrigin + elapsed`, and `elapsed` moves only when a timer fires, to the timer's
 *   due time. Tool calls take no logical time, so a replayed call answers at the same instant.
 *   The real `Date` stays usable for dates given explicitly; its `now` and its prototype's
 *   `constructor` point at the logical clock, so no road leads back to the machine's time.
 */
export const DETERMINISM = String.raw`
let seedA = 0, seedB = 0, seedC = 0, seedD = 0;
function seedRandom(text) {
  seedA = 1779033703; seedB = 3144134277; seedC = 1013904242; seedD = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    seedA = seedB ^ imul(seedA ^ k, 597399067);
    seedB = seedC ^ imul(seedB ^ k, 2869860233);
    seedC = seedD ^ imul(seedC ^ k, 951274213);
    seedD = seedA ^ imul(seedD ^ k, 2716044179);
  }
  seedA = imul(seedC ^ (seedA >>> 18), 597399067);
  seedB = imul(seedD ^ (seedB >>> 22), 2869860233);
  seedC = imul(seedA ^ (seedC >>> 17), 951274213);
  seedD = imul(seedB ^ (seedD >>> 19), 2716044179);
  seedA ^= seedB ^ seedC ^ seedD;
  seedB ^= seedA;
  seedC ^= seedA;
  seedD ^= seedA;
  for (let i = 0; i < 15; i++) next32();
}

function next32() {
  seedA >>>= 0; seedB >>>= 0; seedC >>>= 0; seedD >>>= 0;
  let t = (seedA + seedB) | 0;
  seedA = seedB ^ (seedB >>> 9);
  seedB = (seedC + (seedC << 3)) | 0;
  seedC = (seedC << 21) | (seedC >>> 11);
  seedD = (seedD + 1) | 0;
  t = (t + seedD) | 0;
  seedC = (seedC + t) | 0;
  return t >>> 0;
}

const random = function random() {
  return (next32() * 2097152 + (next32() >>> 11)) / 9007199254740992;
};
defineProperty(Math, 'random', { value: random, writable: false, enumerable: false, configurable: false });

const INTEGER_ARRAYS = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array',
  'Int32Array', 'Uint32Array', 'BigInt64Array', 'BigUint64Array'];
const typedArrayTag = Object.getOwnPropertyDescriptor(getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;
function getRandomValues(array) {
  const tag = ArrayBuffer.isView(array) ? typedArrayTag.call(array) : undefined;
  if (!INTEGER_ARRAYS.includes(tag)) {
    throw new TypeError('crypto.getRandomValues takes an integer typed array, e.g. new Uint8Array(16)');
  }
  if (array.byteLength > 65536) {
    throw new RangeError('crypto.getRandomValues fills at most 65,536 bytes at a time; asked for ' + array.byteLength);
  }
  const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  for (let i = 0; i < bytes.length; i += 4) {
    let word = next32();
    for (let j = 0; j < 4 && i + j < bytes.length; j++) {
      bytes[i + j] = word & 255;
      word >>>= 8;
    }
  }
  return array;
}
const HEX = '0123456789abcdef';
function randomUUID() {
  const b = getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  let text = '';
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) text += '-';
    text += HEX[b[i] >>> 4] + HEX[b[i] & 15];
  }
  return text;
}
const crypto = freeze({ getRandomValues, randomUUID });

let clockOrigin = 0;
let elapsed = 0;
const logicalNow = () => clockOrigin + elapsed;
const RealDate = Date;
const LogicalDate = function Date(...args) {
  if (new.target === undefined) return new RealDate(logicalNow()).toString();
  return Reflect.construct(RealDate, args.length === 0 ? [logicalNow()] : args, new.target);
};
defineProperty(LogicalDate, 'prototype', { value: RealDate.prototype, writable: false });
defineProperty(LogicalDate, 'length', { value: 7 });
LogicalDate.now = function now() { return logicalNow(); };
LogicalDate.parse = RealDate.parse;
LogicalDate.UTC = RealDate.UTC;
defineProperty(RealDate.prototype, 'constructor', { value: LogicalDate, writable: false, configurable: false });
defineProperty(RealDate, 'now', { value: LogicalDate.now, writable: false, configurable: false });
freeze(LogicalDate);
const performance = freeze({
  now: function now() { return elapsed; },
  get timeOrigin() { return clockOrigin; },
});
`;
