/**
 * Every `capabilities hub …` command line the README and docs/ show names a command the CLI has,
 * with options that command takes (issue #40: the README showed `hub init --import --dry-run`,
 * which only `hub import` takes). Read from each command's own `--help`, as a person checks.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, REPO } from './cli-process.ts';

/** The pages a person reads. */
const PAGES = [
  'README.md',
  ...readdirSync(join(REPO, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** `capabilities hub <command> [<sub>] …` in backticks or code blocks, up to the end of the line or span. */
function commandLines(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/capabilities hub ([a-z][a-z-]*(?: [^`\n|]*)?)/g))
    found.push(match[1] ?? '');
  return found;
}

const helpCache = new Map<string, string>();
function help(words: readonly string[]): string {
  const key = words.join(' ');
  let text = helpCache.get(key);
  if (text === undefined) {
    const run = spawnSync(BIN, ['hub', ...words, '--help'], { encoding: 'utf8', timeout: 30_000 });
    // An unknown command shows its parent's help: only a help of this very command counts.
    text = run.status === 0 && run.stdout.startsWith(`Usage: capabilities hub ${key} `) ? run.stdout : '';
    helpCache.set(key, text);
  }
  return text;
}

describe('the command lines the docs show', () => {
  it('name commands the CLI has, with options those commands take', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const page of PAGES) {
      for (const line of commandLines(readFileSync(join(REPO, page), 'utf8'))) {
        checked++;
        const words = line.split(/\s+/);
        const [command = '', second] = words;
        const sub = second !== undefined && /^[a-z][a-z-]*$/.test(second) && help([command, second]) !== '';
        const path = sub ? [command, second as string] : [command];
        const text = help(path);
        if (text === '') {
          wrong.push(`${page}: \`capabilities hub ${line}\`: no command \`hub ${path.join(' ')}\``);
          continue;
        }
        for (const option of words.filter((word) => /^--[a-z][a-z-]*/.test(word))) {
          const name = /^--[a-z][a-z-]*/.exec(option)?.[0] ?? option;
          if (!new RegExp(`(^|[\\s,])${name}(?![a-z-])`, 'm').test(text)) {
            wrong.push(`${page}: \`capabilities hub ${line}\`: \`hub ${path.join(' ')}\` takes no ${name}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    // The pages show dozens of command lines: a pattern that stopped finding them would pass on none.
    expect(checked).toBeGreaterThanOrEqual(20);
  }, 120_000);
});
