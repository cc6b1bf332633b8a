/**
 * Compute checks (engine/pipeline/fuel.ts): exact rewrites for every kind of loop and function
 * body, the statement bodies that are not functions, and the invariants: no new line, re-parsed.
 */
import { describe, expect, it } from 'vitest';
import { addComputeChecks } from '../../engine/pipeline/fuel.ts';

const fuel = (code: string) => {
  const result = addComputeChecks(code, 'F');
  if (!result.ok) throw new Error(JSON.stringify(result.failure));
  return result.code;
};

describe('addComputeChecks', () => {
  it.each([
    ['while (true) {}', 'while (true) {F();}'],
    ['for (;;) x++', 'for (;;) {F();x++}'],
    [
      'for (const a of b) if (a) c(a); else d(a)\nreturn 1',
      'for (const a of b) {F();if (a) c(a); else d(a)}\nreturn 1',
    ],
    ['do x++; while (x < 10)\nreturn x', 'do {F();x++;} while (x < 10)\nreturn x'],
    ['do { x++ } while (x < 10)', 'do {F(); x++ } while (x < 10)'],
    ['while (x);', 'while (x){F();;}'],
    [
      'label: for (const k in o) while (k) continue label',
      'label: for (const k in o) {F();while (k) {F();continue label}}',
    ],
    ['for await (const x of y) {}', 'for await (const x of y) {F();}'],
    ['while (a) while (b) c = () => d', 'while (a) {F();while (b) {F();c = () =>(F(), d)}}'],
  ])('checks every loop iteration: %j', (code, expected) => {
    expect(fuel(code)).toBe(expected);
  });

  it.each([
    ['function f() { return 1 }', 'function f() {F(); return 1 }'],
    ['const f = async function* () {}', 'const f = async function* () {F();}'],
    ['const f = () => g()', 'const f = () =>(F(), g())'],
    ['const h = async (a) => a ? b : c, k = 2', 'const h = async (a) =>(F(), a ? b : c), k = 2'],
    ['const p = (x) => ({ a: x })', 'const p = (x) =>(F(), ({ a: x }))'],
    ['const f = () => { return 1 }', 'const f = () => {F(); return 1 }'],
    ['m(x => x, y => y)', 'm(x =>(F(), x), y =>(F(), y))'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the code under test holds a template literal
    ['const t = `a${(x) => x + 1}b`', 'const t = `a${(x) =>(F(), x + 1)}b`'],
    [
      'const o = { m() {}, get x() { return 2 }, [k]() {} }',
      'const o = { m() {F();}, get x() {F(); return 2 }, [k]() {F();} }',
    ],
    [
      'class A extends mix(B) { constructor() { super() } static s() {} #p() {} static { i() } }',
      'class A extends mix(B) { constructor() {F(); super() } static s() {F();} #p() {F();} static { i() } }',
    ],
    ['const f = () => a\n(b)', 'const f = () =>(F(), a\n(b))'],
    ['const f = () => a\nb()', 'const f = () =>(F(), a)\nb()'],
  ])('checks every function entry: %j', (code, expected) => {
    expect(fuel(code)).toBe(expected);
  });

  it('leaves statement blocks that are not loops or functions alone', () => {
    const code =
      'if (a) { b } else { c }\ntry { d } catch (e) { f } finally { g }\nswitch (x) { case 1: break }\n{ block }';
    expect(fuel(code)).toBe(code);
  });

  it('never adds a line, and refuses what it cannot read', () => {
    const code = 'for (const x of xs) {\n  total += x\n}\nconst f = (a) =>\n  a * 2\nreturn f(total)';
    expect(fuel(code).split('\n')).toHaveLength(code.split('\n').length);
    expect(addComputeChecks('while (', 'F')).toMatchObject({ ok: false, failure: { line: 1 } });
  });
});
