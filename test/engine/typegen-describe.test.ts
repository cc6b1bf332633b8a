/**
 * `describe` answers (spec: The MCP surface, describe): their layout, the names of hoisted types
 * and the errors for bad targets, as exact strings that double as the documentation of what a model
 * reads. The budget: typegen-budget.test.ts. The last test compiles every answer given.
 */
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../engine/contracts/sources.ts';
import { isHubError } from '../../engine/errors.ts';
import {
  answer,
  CALL_OPTIONS_TEXT,
  compilesEveryAnswer,
  describeTargets,
  type FixtureTool,
  manifestOf,
} from './typegen-fixtures.ts';

const UNTYPED =
  "@returns The tool's structured content when present, else its text parsed as JSON when it is JSON, else the text.";

const issueSearchResult = {
  title: 'IssueSearchResult',
  type: 'object',
  properties: { total_count: { type: 'integer' }, items: { type: 'array', items: { $ref: '#/$defs/issue' } } },
  required: ['total_count', 'items'],
  $defs: {
    issue: { type: 'object', properties: { number: { type: 'integer' }, title: { type: 'string' } }, required: ['number', 'title'] },
  },
}; // biome-ignore format: a schema reads better packed

const searchIssues: FixtureTool = {
  name: 'searchIssues',
  description: 'Search issues and pull requests.',
  inputSchema: {
    type: 'object',
    properties: { q: { type: 'string', description: 'Search query, GitHub syntax.' }, perPage: { type: 'integer' }, page: { type: 'integer' } },
    required: ['q'],
  },
  outputSchema: issueSearchResult,
}; // biome-ignore format: a schema reads better packed

const github = manifestOf('github', [
  searchIssues,
  {
    name: 'listIssues',
    description: 'List issues.',
    inputSchema: { type: 'object', properties: { repo: { type: 'string' } }, required: ['repo'] },
    outputSchema: issueSearchResult,
  },
]);
const context7 = manifestOf('context7', [
  {
    name: 'resolve-library-id',
    description: 'Find a library.',
    inputSchema: {
      type: 'object',
      properties: { libraryName: { type: 'string' } },
      required: ['libraryName'],
    },
  },
]);

describe('an answer', () => {
  it("has the spec's shape: CallOptions, one declare const per namespace, required members first, descriptions as JSDoc", () => {
    expect(
      describeTargets([github], ['github.searchIssues']).text,
    ).toBe(`${CALL_OPTIONS_TEXT}declare const github: {
\t/** Search issues and pull requests. */
\tsearchIssues(input: {
\t\t/** Search query, GitHub syntax. */
\t\tq: string;
\t\tperPage?: number;
\t\tpage?: number;
\t}, options?: CallOptions): Promise<github.IssueSearchResult>;
};
declare namespace github {
\tinterface IssueSearchResult { total_count: number; items: Issue[] }
\tinterface Issue { number: number; title: string }
}
`);
  });

  it('gives a block per namespace in order of first appearance, and declares a type shared by tools once', () => {
    expect(answer([github, context7], ['context7', 'github'])).toBe(`declare const context7: {
\t/**
\t * Find a library.
\t * ${UNTYPED}
\t */
\tresolveLibraryId(input: { libraryName: string }, options?: CallOptions): Promise<unknown>;
};
declare const github: {
\t/** Search issues and pull requests. */
\tsearchIssues(input: {
\t\t/** Search query, GitHub syntax. */
\t\tq: string;
\t\tperPage?: number;
\t\tpage?: number;
\t}, options?: CallOptions): Promise<github.IssueSearchResult>;
\t/** List issues. */
\tlistIssues(input: { repo: string }, options?: CallOptions): Promise<github.IssueSearchResult>;
};
declare namespace github {
\tinterface IssueSearchResult { total_count: number; items: Issue[] }
\tinterface Issue { number: number; title: string }
}
`);
  });

  it('names methods by their address, and takes the source’s own tool name as a target too', () => {
    const byAddress = describeTargets([context7], ['context7.resolveLibraryId']);
    expect(byAddress.text).toContain(
      '\tresolveLibraryId(input: { libraryName: string }, options?: CallOptions)',
    );
    expect(describeTargets([context7], ['context7.resolve-library-id'])).toEqual(byAddress);
  });

  it('expands a type named in an earlier answer, without CallOptions when no method is shown', () => {
    expect(
      describeTargets([github], ['github.Issue', 'github.IssueSearchResult']).text,
    ).toBe(`declare namespace github {
\tinterface Issue { number: number; title: string }
\tinterface IssueSearchResult { total_count: number; items: Issue[] }
}
`);
  });

  it('shows each tool once however many targets name it, and says so when a namespace has no tools', () => {
    expect(describeTargets([github], ['github', 'github.listIssues', ' github ']).text).toBe(
      describeTargets([github], ['github']).text,
    );
    expect(describeTargets([manifestOf('empty', [])], ['empty'])).toEqual({
      text: '// empty: no tools.\n',
      tokens: 6,
      omitted: [],
    });
  });
});

describe('names of hoisted types', () => {
  const labels = {
    type: 'array',
    items: { type: 'object', properties: { name: { type: 'string' }, color: { type: 'object', properties: { hex: { type: 'string' } } } } },
  }; // biome-ignore format: a schema reads better packed
  const user = { type: 'object', properties: { login: { type: 'string' } }, required: ['login'] };
  const ns = manifestOf('ns', [
    { name: 'create-issue', inputSchema: { type: 'object', properties: { labels } } },
    { name: 'get_user', inputSchema: { type: 'object', properties: { who: { $ref: '#/$defs/user' } }, $defs: { user } } },
    { name: 'find_user', inputSchema: { type: 'object', properties: { who: { $ref: '#/$defs/user' } }, $defs: { user } } },
    {
      name: 'Issue',
      inputSchema: {
        type: 'object',
        properties: {
          issue: { $ref: '#/definitions/issue' },
          user: { $ref: '#/definitions/user' },
          address: { title: 'Postal address', type: 'object', properties: { city: { type: 'string' } } },
        },
        definitions: { issue: { type: 'object', properties: { id: { type: 'number' } } }, user: { type: 'object', properties: { id: { type: 'number' } } } },
      },
    },
  ]); // biome-ignore format: schemas read better packed

  it('come from the $defs key (unique in the namespace, a tool’s name taken first), shared where the schemas are equal', () => {
    expect(answer([ns], ['ns'])).toBe(`declare const ns: {
\t/** ${UNTYPED} */
\tcreateIssue(input: { labels?: { name?: string; color?: { hex?: string } }[] }, options?: CallOptions): Promise<unknown>;
\t/** ${UNTYPED} */
\tget_user(input: { who?: ns.User }, options?: CallOptions): Promise<unknown>;
\t/** ${UNTYPED} */
\tfind_user(input: { who?: ns.User }, options?: CallOptions): Promise<unknown>;
\t/** ${UNTYPED} */
\tIssue(input: { issue?: ns.Issue2; user?: ns.User2; address?: { city?: string } }, options?: CallOptions): Promise<unknown>;
};
declare namespace ns {
\tinterface User { login: string }
\tinterface Issue2 { id?: number }
\tinterface User2 { id?: number }
}
`);
  });

  it('come from the title or the path for types printed in place, which a later describe expands by name', () => {
    expect(
      answer(
        [ns],
        ['ns.CreateIssueInputLabelsItem', 'ns.CreateIssueInputLabelsItemColor', 'ns.PostalAddress'],
      ),
    ).toBe(`declare namespace ns {
\tinterface CreateIssueInputLabelsItem { name?: string; color?: { hex?: string } }
\tinterface CreateIssueInputLabelsItemColor { hex?: string }
\tinterface PostalAddress { city?: string }
}
`);
  });

  it('are derived from the manifest alone: the same for an equal manifest, whatever was asked before', () => {
    const before = describeTargets([ns], ['ns']);
    describeTargets([ns], ['ns.PostalAddress', 'ns.Issue']);
    expect(describeTargets([structuredClone(ns)], ['ns'])).toEqual(before);
  });
});

describe('bad targets', () => {
  const error = (manifests: Manifest[], targets: string[]) => {
    try {
      describeTargets(manifests, targets);
    } catch (e) {
      if (isHubError(e)) return { code: e.code, message: e.message };
      throw e;
    }
    throw new Error('no error');
  };
  const SHAPES =
    'A target is a namespace (github), a tool address (github.createIssue) or a type name from an earlier answer (github.Issue)';

  it('are not_found, naming every unknown target with the closest namespaces, tools and types', () => {
    expect(
      error([github, context7], ['gihub', 'github.listIsues', 'github.Isue', 'context7.resolveLibraryId']),
    ).toEqual({
      code: 'not_found',
      message: `describe found no namespace "gihub" (did you mean github?); no tool or type "github.listIsues" (did you mean github.listIssues?); no tool or type "github.Isue" (did you mean github.Issue?). ${SHAPES}; call search to find tools by what they do.`,
    });
    expect(error([github], ['slack.postMessage'])).toEqual({
      code: 'not_found',
      message: `describe found no namespace "slack". ${SHAPES}; call search to find tools by what they do.`,
    });
  });

  it('are invalid_input when there are none, more than ten, or an empty one', () => {
    expect(error([github], [])).toEqual({
      code: 'invalid_input',
      message: `describe takes 1 to 10 targets; got 0. ${SHAPES}; describe more in several calls.`,
    });
    expect(
      error(
        [github],
        Array.from({ length: 11 }, () => 'github'),
      ).code,
    ).toBe('invalid_input');
    expect(error([github], ['github', ' '])).toEqual({
      code: 'invalid_input',
      message: `a describe target is empty. ${SHAPES}.`,
    });
  });
});

compilesEveryAnswer(10);
