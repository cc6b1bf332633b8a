/**
 * `capabilities hub search` (issue #38): a person sees exactly what an agent's `search` answers,
 * through the real CLI and the official client on `hub serve --stdio` of the same hub; an empty
 * query lists, `--namespace` narrows, a namespace that does not exist is named with the closest
 * ones, `--json` is one object, and a direct-mode profile (no search) says so.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBoard, cli, hubHome } from './cli-process.ts';
import { stdioClient, textOf } from './surface-fixture.ts';

let home: string;
let remove: () => void;

beforeAll(() => {
  ({ home, remove } = hubHome());
  expect(cli(home, ['hub', 'init']).status).toBe(0);
  const added = addBoard(home, join(home, 'count.txt'));
  expect(added.status, added.stderr).toBe(0);
  expect(cli(home, ['hub', 'profiles', 'create', 'plain', '--mode', 'direct']).status).toBe(0);
});
afterAll(() => remove());

describe('hub search', () => {
  it('prints what the search tool answers an agent', async () => {
    const { client } = await stdioClient(home, 'auto');
    try {
      for (const [words, input] of [
        [['post', 'a', 'message'], { query: 'post a message' }],
        [[], { query: '' }],
        [['--namespace', 'board'], { query: '', namespace: 'board' }],
        [['list', '--limit', '1'], { query: 'list', limit: 1 }],
      ] as const) {
        const printed = cli(home, ['hub', 'search', ...words]);
        expect(printed.status, printed.stderr).toBe(0);
        const answered = textOf(await client.callTool({ name: 'search', arguments: input }));
        expect(printed.stdout.trimEnd()).toBe(answered);
      }
    } finally {
      await client.close();
    }
    expect(cli(home, ['hub', 'search', 'post', 'a', 'message']).stdout).toMatch(
      /^board\n {2}board\.post\(input: \{ text: string \}\): Promise<unknown> {3}\[asks\]\n {4}Post a message to the board\./,
    );
  }, 60_000);

  it('names the closest namespaces when one does not exist, and refuses a bad limit', () => {
    const missing = cli(home, ['hub', 'search', 'post', '--namespace', 'bored']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/no namespace "bored"\. Did you mean "board"\?/);
    const limit = cli(home, ['hub', 'search', 'post', '--limit', '0']);
    expect(limit.status).toBe(2);
    expect(limit.stderr).toMatch(/--limit takes a whole number from 1 to 25/);
  });

  it('--json is one object with the answer; a direct-mode profile has no search, and says what to run', () => {
    const json = cli(home, ['--json', 'hub', 'search', 'post']);
    expect(JSON.parse(json.stdout)).toEqual({
      profile: 'default',
      query: 'post',
      text: expect.stringContaining('board.post('),
    });
    const direct = cli(home, ['hub', 'search', 'post', '--profile', 'plain']);
    expect(direct.status).toBe(2);
    expect(direct.stderr).toMatch(/serves its tools directly .*`capabilities hub profiles show plain`/);
  });
});
