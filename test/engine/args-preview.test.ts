/** The arguments a person is shown (issue: security, finding 1 and its review): every field in sight. */
import { describe, expect, it } from 'vitest';
import { argsPreview, PREVIEW_CHARS } from '../../engine/approvals/args-preview.ts';

describe('argsPreview', () => {
  it('shows small arguments whole, as pretty JSON', () => {
    expect(argsPreview({ path: '/home/ada/notes.txt', text: 'hi' })).toBe(
      '{\n  "path": "/home/ada/notes.txt",\n  "text": "hi"\n}',
    );
  });

  it('attack: a long field first cannot push the one that matters out of sight', () => {
    const preview = argsPreview({ pad: 'x'.repeat(50_000), to: 'attacker@evil.example' });
    expect(preview.length).toBeLessThanOrEqual(PREVIEW_CHARS);
    expect(preview).toContain('"to": "attacker@evil.example"');
    expect(preview).toMatch(/^\(long values are shortened; the decision covers them whole\)/);
    expect(preview).toMatch(/xxxx… \([\d,]+ characters not shown\) …xxxx/);
  });

  it('shortens many fields and long lists, saying how many are not shown, and stays within the cap', () => {
    const wide = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`field${i}`, `value ${i}`]));
    const preview = argsPreview({ list: Array.from({ length: 5_000 }, (_, i) => i), wide });
    expect(preview.length).toBeLessThanOrEqual(PREVIEW_CHARS);
    expect(preview).toMatch(/more items not shown/);
    expect(preview).toMatch(/more fields not shown/);
  });

  it('says so when even that cannot fit, and when the arguments nest too deeply to show', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(argsPreview(deep)).toMatch(/nested too deeply to show/);
    let tall: unknown = 'x'.repeat(100);
    for (let i = 0; i < 400; i++) tall = { a: tall, b: tall === null ? 0 : 1 };
    const preview = argsPreview(tall);
    expect(preview.length).toBeLessThanOrEqual(PREVIEW_CHARS);
  });
});
