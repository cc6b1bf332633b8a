/** Policy, table-driven: every row of the spec's rules, with the reason a person reads. */
import { describe, expect, it } from 'vitest';
import type { PolicyRule } from '../../engine/contracts/policy.ts';
import type { ManifestTool, ToolReview } from '../../engine/contracts/sources.ts';
import { evaluatePolicy } from '../../engine/policy/evaluate.ts';

const C1 = '1'.repeat(64);
const C2 = '2'.repeat(64);
const tool = (over: Partial<ManifestTool> = {}): ManifestTool => ({
  address: 'github.create_issue',
  name: 'create_issue',
  description: 'Create an issue.',
  inputSchema: { type: 'object' },
  contract: C1,
  ...over,
});
const reviewed = (t: ManifestTool): ToolReview => ({
  address: t.address,
  namespace: 'github',
  contract: t.contract,
  tool: t,
  reviewedAt: 0,
});
let n = 0;
const rule = (over: Partial<PolicyRule> & Pick<PolicyRule, 'target' | 'effect'>): PolicyRule => ({
  id: `r${++n}`,
  createdAt: 0,
  ...over,
});
const onTool = { kind: 'tool', address: 'github.create_issue' } as const;
const onSource = { kind: 'source', namespace: 'github' } as const;

type Row = [
  string,
  { rules: PolicyRule[]; connection?: string | null; tool?: ManifestTool; review?: ToolReview | null },
  string,
  string,
];

const readOnly = tool({ annotations: { readOnlyHint: true } });
const changed = tool({ description: 'Create an issue, and close all others.', contract: C2 });

const rows: Row[] = [
  ['no rule, declared read-only: runs', { rules: [], tool: readOnly }, 'allow', 'reads: declared read-only'],
  ['no rule, not annotated: asks', { rules: [] }, 'ask', 'writes: not declared read-only'],
  [
    'no rule, readOnlyHint false: asks',
    { rules: [], tool: tool({ annotations: { readOnlyHint: false } }) },
    'ask',
    'writes: not declared read-only',
  ],
  [
    'source allow',
    { rules: [rule({ target: onSource, effect: 'allow' })] },
    'allow',
    'allowed by your policy on source github',
  ],
  [
    'tool rule beats source rule',
    { rules: [rule({ target: onSource, effect: 'allow' }), rule({ target: onTool, effect: 'ask' })] },
    'ask',
    'asks by your policy on github.create_issue',
  ],
  [
    'source+connection beats source',
    {
      rules: [
        rule({ target: onSource, effect: 'ask' }),
        rule({ target: onSource, connection: 'work', effect: 'allow' }),
      ],
      connection: 'work',
    },
    'allow',
    'allowed by your policy on source github on connection work',
  ],
  [
    'a rule on no connection covers a call on none',
    { rules: [rule({ target: onTool, connection: null, effect: 'allow' })], connection: null },
    'allow',
    'allowed by your policy on github.create_issue with no connection',
  ],
  [
    'a rule on no connection does not cover a connection added later',
    {
      rules: [
        rule({ target: onTool, effect: 'ask' }),
        rule({ target: onTool, connection: null, effect: 'allow' }),
      ],
      connection: 'work',
    },
    'ask',
    'asks by your policy on github.create_issue',
  ],
  [
    'tool beats source+connection',
    {
      rules: [
        rule({ target: onSource, connection: 'work', effect: 'allow' }),
        rule({ target: onTool, effect: 'ask' }),
      ],
      connection: 'work',
    },
    'ask',
    'asks by your policy on github.create_issue',
  ],
  [
    'tool+connection beats tool',
    {
      rules: [
        rule({ target: onTool, effect: 'ask' }),
        rule({ target: onTool, connection: 'work', effect: 'allow' }),
      ],
      connection: 'work',
    },
    'allow',
    'allowed by your policy on github.create_issue on connection work',
  ],
  [
    'a connection rule does not match another connection',
    { rules: [rule({ target: onTool, connection: 'work', effect: 'allow' })], connection: 'personal' },
    'ask',
    'writes: not declared read-only',
  ],
  [
    'a connection rule does not match no connection',
    { rules: [rule({ target: onTool, connection: 'work', effect: 'allow' })], connection: null },
    'ask',
    'writes: not declared read-only',
  ],
  [
    'deny on source wins over a narrower allow',
    {
      rules: [
        rule({ target: onSource, effect: 'deny' }),
        rule({ target: onTool, connection: 'work', effect: 'allow' }),
      ],
      connection: 'work',
    },
    'deny',
    'denied by your policy on source github',
  ],
  [
    'deny on source+connection wins over tool allow',
    {
      rules: [
        rule({ target: onSource, connection: 'work', effect: 'deny' }),
        rule({ target: onTool, effect: 'allow' }),
      ],
      connection: 'work',
    },
    'deny',
    'denied by your policy on source github on connection work',
  ],
  [
    'deny wins even for a read-only tool',
    { rules: [rule({ target: onTool, effect: 'deny' })], tool: readOnly },
    'deny',
    'denied by your policy on github.create_issue',
  ],
  [
    'a pinned deny still denies after the tool changed',
    {
      rules: [rule({ target: onTool, effect: 'deny', contract: C1 })],
      tool: changed,
      review: reviewed(tool()),
    },
    'deny',
    'denied by your policy on github.create_issue',
  ],
  [
    'never reviewed: asks even when read-only and allowed',
    { rules: [rule({ target: onSource, effect: 'allow' })], tool: readOnly, review: null },
    'ask',
    'new since your last review: a person has not approved this tool yet',
  ],
  [
    'changed since review: asks and names what changed',
    {
      rules: [rule({ target: onTool, effect: 'allow', contract: C1 })],
      tool: changed,
      review: reviewed(tool()),
    },
    'ask',
    'changed upstream since you approved it: description',
  ],
  [
    'a rule pinned to the current contract applies',
    { rules: [rule({ target: onTool, effect: 'allow', contract: C1 })] },
    'allow',
    'allowed by your policy on github.create_issue',
  ],
  [
    'a rule pinned to another contract stops applying',
    { rules: [rule({ target: onTool, effect: 'allow', contract: C2 })], review: reviewed(tool()) },
    'ask',
    'writes: not declared read-only',
  ],
  [
    'equally specific: the stricter wins',
    { rules: [rule({ target: onTool, effect: 'allow' }), rule({ target: onTool, effect: 'ask' })] },
    'ask',
    'asks by your policy on github.create_issue',
  ],
  [
    'a rule on another tool or source does not match',
    {
      rules: [
        rule({ target: { kind: 'tool', address: 'github.delete_repo' }, effect: 'deny' }),
        rule({ target: { kind: 'source', namespace: 'gitlab' }, effect: 'deny' }),
      ],
    },
    'ask',
    'writes: not declared read-only',
  ],
];

describe('policy decides every call', () => {
  it.each(rows)('%s', (_title, given, effect, reason) => {
    const t = given.tool ?? tool();
    const review = given.review === null ? undefined : (given.review ?? reviewed(t));
    const decision = evaluatePolicy(
      { address: 'github.create_issue', connection: given.connection ?? null },
      t,
      given.rules,
      review,
    );
    expect([decision.effect, decision.reason]).toEqual([effect, reason]);
  });
});
