/**
 * The real Clock and Random every host runs on: the machine's time and WebCrypto's random
 * bytes, present in Workers and Node alike. Tests hand in their own.
 */
import type { Clock, Random } from './ports.ts';

export const systemClock: Clock = { now: () => Date.now() };

export const cryptoRandom: Random = { bytes: (n) => crypto.getRandomValues(new Uint8Array(n)) };
