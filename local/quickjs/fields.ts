/**
 * The wire form of the QuickJS bridge's hot messages: length-prefixed fields, `<UTF-16
 * length>:<text>`, one after another. A turn's requests (the guest's outbox, outbox.ts)
 * and a batch of answers each cross the thread boundary as one such string: a bare string is
 * the cheapest thing to post (structured clone copies it in one go), costs no escaping, and
 * reads back with slices. Nothing read here is trusted: a malformed field ends the reading.
 */

/** One field. */
export function field(text: string): string {
  return `${text.length}:${text}`;
}

/** Reads a text's fields in order. */
export class FieldReader {
  readonly #text: string;
  #at = 0;

  constructor(text: string) {
    this.#text = text;
  }

  get done(): boolean {
    return this.#at >= this.#text.length;
  }

  /** One character (a record's kind). */
  char(): string {
    return this.#text.charAt(this.#at++);
  }

  /** The next field, or undefined if it is malformed (the reader should stop). */
  field(): string | undefined {
    const text = this.#text;
    let length = 0;
    let at = this.#at;
    for (let digits = 0; ; at++, digits++) {
      const code = text.charCodeAt(at);
      if (code === 58 /* : */ && digits > 0) break;
      if (!(code >= 48 && code <= 57) || digits > 9) return undefined;
      length = length * 10 + (code - 48);
    }
    const start = at + 1;
    if (start + length > text.length) return undefined;
    this.#at = start + length;
    return text.slice(start, this.#at);
  }

  /** The next field as a safe integer, or undefined. */
  integer(): number | undefined {
    const text = this.field();
    if (text === undefined || text === '') return undefined;
    const value = Number(text);
    return Number.isSafeInteger(value) ? value : undefined;
  }
}

/** Answers for the worker: `texts[i]` answers call `ids[i]`. */
export function encodeAnswers(ids: readonly number[], texts: readonly string[]): string {
  let out = '';
  for (let i = 0; i < ids.length; i++) out += field(String(ids[i])) + field(texts[i] ?? '');
  return out;
}

/** What `encodeAnswers` wrote, up to the first malformed answer. */
export function readAnswers(text: string): { ids: number[]; texts: string[] } {
  const ids: number[] = [];
  const texts: string[] = [];
  const reader = new FieldReader(text);
  while (!reader.done) {
    const id = reader.integer();
    const answer = reader.field();
    if (id === undefined || answer === undefined) break;
    ids.push(id);
    texts.push(answer);
  }
  return { ids, texts };
}
