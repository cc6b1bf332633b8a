/**
 * The decoded view (engine/secrets/decoded-view.ts): a text with its percent, JSON and HTML escapes
 * undone, each decoded character mapped back to the span of the text it came from; what is no
 * escape (a lone `%`, `\q`, `&nbsp;`, bytes that are no UTF-8) stays as written.
 */
import { describe, expect, it } from 'vitest';
import { decodedView } from '../../engine/secrets/decoded-view.ts';

/** The source span of each decoded character, as text. */
function spans(text: string): string[] {
  const view = decodedView(text);
  if (!view?.from) throw new Error(`${text} has nothing to undo`);
  const from = view.from;
  return [...view.text].map((_, i) => text.slice(from[i], from[i + 1]));
}

describe('the decoded view', () => {
  it('has nothing to undo in a text without %, \\ or &', () => {
    expect(decodedView('plain text, no escapes')).toBeUndefined();
  });

  it('undoes percent escapes in either case, escaped twice, and reads runs of them as UTF-8', () => {
    expect(decodedView('a%2Fb%2fc%252Fd%C3%BCe')?.text).toBe('a/b/c/düe');
    expect(spans('a%C3%BCb')).toEqual(['a', '%C3%BC', 'b']);
  });

  it('undoes JSON escapes, \\u in either case', () => {
    expect(decodedView('\\"x\\\\y\\/z\\n\\u0041\\u00fC')?.text).toBe('"x\\y/z\nAü');
    expect(spans('a\\u0041b')).toEqual(['a', '\\u0041', 'b']);
  });

  it('undoes HTML entities: decimal, hex with leading zeros, and the five named ones', () => {
    expect(decodedView('&#47;&#x02F;&#X2f;&amp;&lt;&gt;&quot;&apos;')?.text).toBe(`///&<>"'`);
  });

  it('leaves what is no escape as it was written', () => {
    expect(decodedView('100% \\q &nbsp; %zz %C3 &#x110000;')?.text).toBe(
      '100% \\q &nbsp; %zz %C3 &#x110000;',
    );
  });
});
