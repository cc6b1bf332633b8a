/**
 * `describe` within its token budget (2,500 o200k tokens unless given): what an answer gives up,
 * in order, to fit — deeper types printed by name, then descriptions, then tools — and that it is
 * never over, whatever the budget. Exact strings; the last test compiles every answer given.
 */
import { describe, expect, it } from 'vitest';
import { countTokens } from '../../engine/typegen/index.ts';
import {
  answer,
  CALL_OPTIONS_TEXT,
  compilesEveryAnswer,
  describeTargets,
  manifestOf,
} from './typegen-fixtures.ts';

const UNTYPED =
  "@returns The tool's structured content when present, else its text parsed as JSON when it is JSON, else the text.";

describe('the budget', () => {
  const label = {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'The label name, as shown on the issue.' },
      color: { type: 'string', description: 'Six hex digits, without the leading #.' },
    },
    required: ['name'],
  };
  const gh = manifestOf('gh', [
    {
      name: 'create_issue',
      description: 'Create an issue.\n\nIt is opened in the repository given, with the labels given.',
      inputSchema: {
        type: 'object',
        properties: { title: { type: 'string', description: 'The title. Keep it short.' }, labels: { type: 'array', items: label } },
        required: ['title'],
      },
    },
    { name: 'close_issue', description: 'Close an issue.', inputSchema: { type: 'object', properties: { number: { type: 'integer' } }, required: ['number'] } },
    {
      name: 'list_issues',
      description: 'List issues.',
      inputSchema: {
        type: 'object',
        properties: { state: { enum: ['open', 'closed', 'all'] }, labels: { type: 'array', items: label }, since: { type: 'string', format: 'date-time' }, page: { type: 'integer' } },
      },
    },
  ]); // biome-ignore format: schemas read better packed
  const at = (budgetTokens: number) => answer([gh], ['gh'], { budgetTokens });
  const TERSE_UNTYPED =
    "// Methods returning Promise<unknown> resolve to the tool's structured content when present, else its text parsed as JSON when it is JSON, else the text.\n";

  it('is 2,500 o200k tokens unless given: the whole answer when it fits', () => {
    expect(describeTargets([gh], ['gh']).tokens).toBe(348);
    expect(at(2500)).toBe(`declare const gh: {
\t/**
\t * Create an issue.
\t *
\t * It is opened in the repository given, with the labels given.
\t * ${UNTYPED}
\t */
\tcreate_issue(input: {
\t\t/** The title. Keep it short. */
\t\ttitle: string;
\t\tlabels?: {
\t\t\t/** The label name, as shown on the issue. */
\t\t\tname: string;
\t\t\t/** Six hex digits, without the leading #. */
\t\t\tcolor?: string;
\t\t}[];
\t}, options?: CallOptions): Promise<unknown>;
\t/**
\t * Close an issue.
\t * ${UNTYPED}
\t */
\tclose_issue(input: { number: number }, options?: CallOptions): Promise<unknown>;
\t/**
\t * List issues.
\t * ${UNTYPED}
\t */
\tlist_issues(input: {
\t\tstate?: "open" | "closed" | "all";
\t\tlabels?: {
\t\t\t/** The label name, as shown on the issue. */
\t\t\tname: string;
\t\t\t/** Six hex digits, without the leading #. */
\t\t\tcolor?: string;
\t\t}[];
\t\t/** @format date-time */
\t\tsince?: string;
\t\tpage?: number;
\t}, options?: CallOptions): Promise<unknown>;
};
`);
  });

  it('is met first by printing deeper types by name, declared for a later describe', () => {
    expect(at(347)).toBe(`declare const gh: {
\t/**
\t * Create an issue.
\t *
\t * It is opened in the repository given, with the labels given.
\t * ${UNTYPED}
\t */
\tcreate_issue(input: {
\t\t/** The title. Keep it short. */
\t\ttitle: string;
\t\tlabels?: gh.CreateIssueInputLabelsItem[];
\t}, options?: CallOptions): Promise<unknown>;
\t/**
\t * Close an issue.
\t * ${UNTYPED}
\t */
\tclose_issue(input: { number: number }, options?: CallOptions): Promise<unknown>;
\t/**
\t * List issues.
\t * ${UNTYPED}
\t */
\tlist_issues(input: {
\t\tstate?: "open" | "closed" | "all";
\t\tlabels?: gh.ListIssuesInputLabelsItem[];
\t\t/** @format date-time */
\t\tsince?: string;
\t\tpage?: number;
\t}, options?: CallOptions): Promise<unknown>;
};
declare namespace gh {
\t// Not expanded (budget); describe "gh.<Name>" for each:
\ttype CreateIssueInputLabelsItem = unknown;
\ttype ListIssuesInputLabelsItem = unknown;
}
`);
  });

  it('then by cutting descriptions to their first sentence, then to the tool’s alone', () => {
    expect(at(316)).toContain('\t * Create an issue.\n\t * @returns');
    expect(at(316)).toContain('\t\t/** The title. */\n');
    expect(at(295)).toBe(`${TERSE_UNTYPED}declare const gh: {
\t/** Create an issue. */
\tcreate_issue(input: { title: string; labels?: { name: string; color?: string }[] }, options?: CallOptions): Promise<unknown>;
\t/** Close an issue. */
\tclose_issue(input: { number: number }, options?: CallOptions): Promise<unknown>;
\t/** List issues. */
\tlist_issues(input: {
\t\tstate?: "open" | "closed" | "all";
\t\tlabels?: { name: string; color?: string }[];
\t\tsince?: string;
\t\tpage?: number;
\t}, options?: CallOptions): Promise<unknown>;
};
`);
  });

  it('then by leaving tools out, from the end, naming them', () => {
    const left = describeTargets([gh], ['gh'], { budgetTokens: 184 });
    expect(left.omitted).toEqual(['gh.list_issues']);
    expect(left.text).toBe(`${CALL_OPTIONS_TEXT}${TERSE_UNTYPED}declare const gh: {
\t/** Create an issue. */
\tcreate_issue(input: { title: string; labels?: { name: string; color?: string }[] }, options?: CallOptions): Promise<unknown>;
\t/** Close an issue. */
\tclose_issue(input: { number: number }, options?: CallOptions): Promise<unknown>;
};
// gh: 1 more not shown (budget): list_issues — describe a few at a time, e.g. "gh.list_issues".
`);
    expect(describeTargets([gh], ['gh'], { budgetTokens: 152 }).omitted).toEqual([
      'gh.close_issue',
      'gh.list_issues',
    ]);
  });

  it('leaves a note alone, shortened to fit, when no tool fits; or nothing', () => {
    expect(describeTargets([gh], ['gh'], { budgetTokens: 128 })).toEqual({
      text: '// gh: 3 not shown (budget): create_issue, close_issue, list_issues — describe a few at a time, e.g. "gh.create_issue".\n',
      tokens: 35,
      omitted: ['gh.create_issue', 'gh.close_issue', 'gh.list_issues'],
    });
    expect(describeTargets([gh], ['gh'], { budgetTokens: 32 }).text).toBe(
      '// gh: 3 not shown (budget): create_issue, … — describe a few at a time, e.g. "gh.create_issue".\n',
    );
    expect(describeTargets([gh], ['gh'], { budgetTokens: 29 })).toEqual({
      text: '',
      tokens: 0,
      omitted: ['gh.create_issue', 'gh.close_issue', 'gh.list_issues'],
    });
  });

  it('prints an input too wide to show by name, as a last resort, for a later describe to expand', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 60 }, (_, i) => [`field${i}`, { type: 'string' }]),
    );
    const wide = manifestOf('ns', [
      { name: 'wide', description: 'Takes many fields.', inputSchema: { type: 'object', properties } },
    ]);
    const answer = describeTargets([wide], ['ns.wide'], { budgetTokens: 150 });
    expect(answer.text).toBe(`${CALL_OPTIONS_TEXT}declare const ns: {
\t/**
\t * Takes many fields.
\t * ${UNTYPED}
\t */
\twide(input: ns.WideInput, options?: CallOptions): Promise<unknown>;
};
declare namespace ns {
\t// Not expanded (budget); describe "ns.<Name>" for each:
\ttype WideInput = unknown;
}
`);
    expect(describeTargets([wide], ['ns.WideInput']).text).toMatch(
      /^declare namespace ns \{\n\tinterface WideInput \{\n\t\tfield0\?: string;\n/,
    );
  });

  it('is never exceeded, and the count is exact, for any budget', () => {
    const user = { type: 'object', properties: { login: { type: 'string', description: 'Their handle.' } } };
    const other = manifestOf('other', [
      {
        name: 'get_user',
        description: 'Get a user.',
        inputSchema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
        outputSchema: { type: 'object', properties: { user: { $ref: '#/$defs/user' } }, $defs: { user } },
      },
    ]);
    for (let budget = 1; budget <= 600; budget += 3) {
      const { text, tokens, omitted } = describeTargets(
        [gh, other],
        ['gh', 'other', 'other.User', 'gh.CreateIssueInputLabelsItem'],
        {
          budgetTokens: budget,
        },
      );
      expect(tokens).toBeLessThanOrEqual(budget);
      expect(tokens).toBe(countTokens(text));
      for (const address of omitted) expect(text).not.toContain(`\t${address.split('.')[1]}(input:`);
    }
  });

  it('must be a positive integer', () => {
    for (const budgetTokens of [0, -1, 1.5, Number.NaN, Infinity]) {
      expect(() => describeTargets([gh], ['gh'], { budgetTokens })).toThrow(
        /budgetTokens must be a positive integer/,
      );
    }
  });
});

compilesEveryAnswer(10);
