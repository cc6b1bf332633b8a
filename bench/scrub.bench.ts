/**
 * The scrubber's cost (engine/secrets/scrub.ts): 1 MB of text with no escapes, of JSON escaped
 * twice (an escape every eight characters), and of an HTML page, scrubbed of 10 and of 200
 * secrets. The baseline, measured interleaved in the same process, is the forms pass alone (each
 * secret's whole encodings as literal text, the scrubber before its decoded view); the ratio is
 * what the second look at a text with its escapes undone (decoded-view.ts) costs.
 */
import { createScrubber, secretForms } from '../engine/secrets/scrub.ts';
import { fmt, median, table, time } from './measure.ts';

interface Row {
  text: string;
  secrets: number;
  formsMs: number;
  scrubberMs: number;
}

/** A deterministic generator, so every run scrubs the same texts. */
function letters(seed: number): (n: number) => string {
  let state = seed;
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_';
  return (n) => {
    let out = '';
    for (let i = 0; i < n; i++) {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      out += alphabet[state % alphabet.length];
    }
    return out;
  };
}

const MB = 1 << 20;

function texts(): Record<string, string> {
  const random = letters(7);
  const items = Array.from({ length: 9_000 }, (_, i) => ({
    id: i,
    url: `https://example.com/x/${random(20)}?q=%2F${i}`,
    note: 'the quick brown fox & <b>"jumps"</b> over the lazy dog',
  }));
  return {
    'plain lines': Array.from({ length: 25_000 }, (_, i) => `line ${i}: ${random(30)}`)
      .join('\n')
      .slice(0, MB),
    'JSON escaped twice': JSON.stringify(JSON.stringify(items)).slice(0, MB),
    'an HTML page': items
      .map((item) => `<li><a href="${item.url}">${item.id}</a> &amp; &#8220;${item.note}&#8221;</li>`)
      .join('\n')
      .slice(0, MB),
  };
}

export function run(): Row[] {
  const rows: Row[] = [];
  const random = letters(11);
  for (const count of [10, 200]) {
    const secrets = Array.from({ length: count }, () => `ghp_${random(36)}`);
    const scrubber = createScrubber(secrets);
    const forms = [...new Set(secrets.flatMap(secretForms))].sort((a, b) => b.length - a.length);
    const pattern = new RegExp(forms.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
    for (const [name, text] of Object.entries(texts())) {
      const formsSamples: number[] = [];
      const scrubberSamples: number[] = [];
      for (let i = 0; i < 25; i++) {
        formsSamples.push(time(() => text.replace(pattern, '[secret]')));
        scrubberSamples.push(time(() => scrubber.text(text)));
      }
      // The first five of each warm the JIT up.
      rows.push({
        text: name,
        secrets: count,
        formsMs: median(formsSamples.slice(5)),
        scrubberMs: median(scrubberSamples.slice(5)),
      });
    }
  }
  return rows;
}

export function format(rows: readonly Row[]): string {
  return table([
    ['1 MB of', 'secrets', 'forms pass (ms)', 'scrubber (ms)', 'scrubber/forms'],
    ...rows.map((row) => [
      row.text,
      String(row.secrets),
      fmt(row.formsMs),
      fmt(row.scrubberMs),
      `${fmt(row.scrubberMs / row.formsMs, 2)}×`,
    ]),
  ]);
}
