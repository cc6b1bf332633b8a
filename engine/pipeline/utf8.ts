/**
 * UTF-8 sizes without encoding: budgets (code, logs, results) are in UTF-8 bytes, and measuring
 * must not allocate a copy of something that may be far over its budget.
 */

/**
 * The UTF-8 length of `text`, counting stops once it passes `stopAfter` (the result is then some
 * number above it). A lone surrogate counts 3 bytes, as TextEncoder writes U+FFFD for it.
 */
export function utf8Length(text: string, stopAfter = Number.POSITIVE_INFINITY): number {
  // Every UTF-16 unit is at least one byte: a text longer than the budget is over it.
  if (text.length > stopAfter) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length && bytes <= stopAfter; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && isLow(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;
