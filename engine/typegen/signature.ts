/**
 * The one-line signature `search` prints for a tool (spec: The MCP surface, search):
 *
 *   github.createIssue(input: { owner: string; repo: string; title: string; body?: string; labels?: string[] }): Promise<CreateIssueOutput>
 *
 * From the same model and printer as `describe`, in line mode: required members first, nested
 * objects as `{…}`, `$defs` types and the output by the name `describe` knows them by, unions past
 * four members cut. Members that would take the line past {@link SIGNATURE_MAX} characters are
 * left out and marked `…`.
 *
 * Bounded work: members are printed one at a time and none after the first that does not fit, all
 * of them within one budget of SIGNATURE_MAX characters (print-budget.ts): what would print longer
 * could not fit anyway. An output or a whole input that would print past OTHER_MAX characters is
 * `unknown`.
 */
import type { Manifest, ManifestTool } from '../contracts/sources.ts';
import { namespaceModel, singleToolModel } from './model.ts';
import { PrintBudget, within } from './print-budget.ts';
import { eachMember, isEmpty, type PrintOptions, printType } from './print-type.ts';

/** Signature lines stay about this short (a very long tool address aside). */
export const SIGNATURE_MAX = 200;

/** The most an output type, or an input that is not an object, prints before it is `unknown`. */
const OTHER_MAX = 4 * SIGNATURE_MAX;

const line = (chars: number): PrintOptions => ({
  limit: 1,
  docs: 'brief',
  qualifier: '',
  line: true,
  reference: () => {},
  budget: new PrintBudget(chars),
});

/**
 * The one-line TypeScript signature of `tool`. Pass the tool's manifest to name its types exactly
 * as `describe` does; without it the names are derived from the tool alone, which differs only
 * when two tools of the namespace define different types under the same name.
 */
export function signatureLine(tool: ManifestTool, manifest?: Manifest): string {
  const inManifest = manifest?.tools.some((t) => t.address === tool.address) === true;
  const model = manifest && inManifest ? namespaceModel(manifest) : singleToolModel(tool);
  const entry = model.tools.find((t) => t.tool.address === tool.address);
  if (entry === undefined) return `${tool.address}(input: unknown): Promise<unknown>`;
  const { output } = entry;
  const printed =
    output === undefined ? 'unknown' : within(() => printType(output, line(OTHER_MAX)).text, 'unknown');
  const head = `${tool.address}(input: `;
  const tail = `): Promise<${printed}>`;
  const input = entry.input.type;
  if (input.kind !== 'object' || isEmpty(input)) {
    const whole = within(
      () => printType(input, line(OTHER_MAX), 0, '', new Set([entry.input])).text,
      'unknown',
    );
    return `${head}${whole}${tail}`;
  }

  const count = input.members.length + (input.index === undefined ? 0 : 1);
  if (count === 0) return `${head}{}${tail}`;
  const room = SIGNATURE_MAX - head.length - tail.length - '{  }'.length;
  const members = eachMember(input, line(SIGNATURE_MAX), 0, '', new Set([entry.input]));
  const kept: string[] = [];
  let used = 0;
  for (;;) {
    // A member over its budget would print longer than SIGNATURE_MAX, so it could not fit either.
    const next = within(() => members.next(), undefined);
    if (next?.done) break;
    const member = next?.value.text;
    const cost = member === undefined ? Infinity : member.length + (kept.length > 0 ? 2 : 0);
    if (member === undefined || used + cost > room - (kept.length + 1 < count ? 3 : 0)) {
      kept.push('…');
      break;
    }
    kept.push(member);
    used += cost;
  }
  return `${head}{ ${kept.join('; ')} }${tail}`;
}
