/**
 * SKILL.md front matter (engine/skills/skill-file.ts) and a skill folder's judgement
 * (engine/skills/skill-bundle.ts): what is accepted, what is refused and what the refusal says.
 */
import { describe, expect, it } from 'vitest';
import { skillFromBundle } from '../../engine/skills/skill-bundle.ts';
import { parseSkillFile } from '../../engine/skills/skill-file.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('parseSkillFile', () => {
  it('reads name, description and the instructions after the front matter', () => {
    const text =
      '\uFEFF---\r\nname: pdf-forms\r\ndescription: >-\r\n  Fill in PDF forms.\r\nlicense: MIT\r\n---\r\n# Steps\r\n';
    expect(parseSkillFile(text, 'SKILL.md')).toEqual({
      name: 'pdf-forms',
      description: 'Fill in PDF forms.',
      body: '# Steps\r\n',
    });
  });

  it.each([
    ['# no front matter\n', 'has no front matter'],
    ['---\nname: [unclosed\n---\n', 'is not valid YAML'],
    ['---\n- a list\n---\n', 'must be YAML keys'],
    ['---\ndescription: x\n---\n', 'needs "name: <name>"'],
    ['---\nname: ok\ndescription: ""\n---\n', 'needs "description:'],
    ['---\nname: 42\ndescription: x\n---\n', 'needs "name: <name>"'],
    ['---\nname: Not_OK\ndescription: x\n---\n', 'is not allowed'],
    [`---\nname: ok\ndescription: ${'x'.repeat(1025)}\n---\n`, 'shorten it to 1024'],
    ['---\nbase: &a { x: 1 }\nname: ok\ndescription: *a\n---\n', 'not valid YAML'],
    ['---\nname: ok\ndescription: 123\n---\n', 'must be text; put it in quotes'],
  ])('refuses %j', (text, message) => {
    expect(() => parseSkillFile(text, 'SKILL.md')).toThrow(message);
  });
});

describe('skillFromBundle', () => {
  const skill = bytes('---\nname: notes\ndescription: Take notes.\n---\nBody\n');

  it('digests the files whatever order the host listed them in, and changes with any file', async () => {
    const a = await skillFromBundle(
      {
        source: '/s',
        files: [
          { path: 'SKILL.md', data: skill },
          { path: 'b.txt', data: bytes('b') },
        ],
      },
      1,
    );
    const b = await skillFromBundle(
      {
        source: '/s',
        files: [
          { path: 'b.txt', data: bytes('b') },
          { path: 'SKILL.md', data: skill },
        ],
      },
      2,
    );
    const c = await skillFromBundle(
      {
        source: '/s',
        files: [
          { path: 'SKILL.md', data: skill },
          { path: 'b.txt', data: bytes('c') },
        ],
      },
      3,
    );
    expect(a.digest).toBe(b.digest);
    expect(c.digest).not.toBe(a.digest);
    expect(a.files).toEqual([
      { path: 'SKILL.md', bytes: skill.byteLength, sha256: expect.stringMatching(/^[a-f0-9]{64}$/) },
      { path: 'b.txt', bytes: 1, sha256: '3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d' },
    ]);
  });

  it.each([
    [[{ path: '../x', data: bytes('x') }], 'not a plain relative path'],
    [[{ path: 'a/./b', data: bytes('x') }], 'not a plain relative path'],
    [
      [{ path: '.capabilities-skill.json', data: bytes('{}') }],
      "the hub's own mark on the copies it installs",
    ],
    [[{ path: 'notes\n  ~ SKILL.md', data: bytes('x') }], 'not a plain relative path'],
    [[{ path: 'a\u202etxt.md', data: bytes('x') }], 'not a plain relative path'],
    [[{ path: '\u001b[2Kx', data: bytes('x') }], 'not a plain relative path'],
    [[{ path: 'README.md', data: bytes('x') }], 'has no SKILL.md'],
    [[{ path: 'SKILL.md', data: new Uint8Array([0xff, 0xfe, 0x00]) }], 'is not UTF-8 text'],
  ])('refuses %j', async (extra, message) => {
    await expect(skillFromBundle({ source: '/s', files: extra }, 1)).rejects.toThrow(message);
  });
});
