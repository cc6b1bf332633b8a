/**
 * typegen: JSON Schema -> TypeScript declarations within a token budget (design: Layout). The
 * MCP surface's `describe` and `search` call exactly these; the rest of this folder is internal.
 * Runtime-neutral: no I/O, no clock; token counting is pure computation over bundled ranks.
 *
 * - `describeTargets`: declarations for namespaces, tool addresses and type names, never over budget;
 * - `signatureLine`: the one-line signature search prints for a tool;
 * - `countTokens`: o200k_base tokens, the unit of every budget.
 */
export {
  DEFAULT_BUDGET_TOKENS,
  type DescribeAnswer,
  type DescribeOptions,
  describeTargets,
} from './describe.ts';
export { SIGNATURE_MAX, signatureLine } from './signature.ts';
export { MAX_TARGETS } from './targets.ts';
export { countTokens } from './tokens.ts';
