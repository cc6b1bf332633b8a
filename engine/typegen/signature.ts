/**
 * The one-line signature `search` prints for a tool (spec: The MCP surface, search):
 *
 *   github.createIssue(input: { owner: string; repo: string; title: string; body?: string; labels?: string[] }): Promise<CreateIssueOutput>
 *
 * From the same model and printer as `describe`, in line mode: required members first, nested
 * objects as `{…}`, `$defs` types and the output by the name `describe` knows them by, unions past
 * four members cut. Members that would take the line past {@link SIGNATURE_MAX} characters are
 * left out and marked `…`.
 */
import type { Manifest, ManifestTool } from '../contracts.ts';
import { namespaceModel, singleToolModel } from './model.ts';
import { isEmpty, type PrintOptions, printMembers, printType } from './print-type.ts';

/** Signature lines stay about this short (a very long tool address aside). */
export const SIGNATURE_MAX = 200;

const LINE: PrintOptions = { limit: 1, docs: 'brief', qualifier: '', line: true, reference: () => {} };

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
  const output = entry.output === undefined ? 'unknown' : printType(entry.output, LINE).text;
  const head = `${tool.address}(input: `;
  const tail = `): Promise<${output}>`;
  const input = entry.input.type;
  if (input.kind !== 'object' || isEmpty(input)) {
    return `${head}${printType(input, LINE, 0, '', new Set([entry.input])).text}${tail}`;
  }

  const members = printMembers(input, LINE, 0, '', new Set([entry.input])).map((m) => m.text);
  if (members.length === 0) return `${head}{}${tail}`;
  const room = SIGNATURE_MAX - head.length - tail.length - '{  }'.length;
  const kept: string[] = [];
  let used = 0;
  for (const member of members) {
    const cost = member.length + (kept.length > 0 ? 2 : 0);
    if (used + cost > room - (kept.length + 1 < members.length ? 3 : 0)) {
      kept.push('…');
      break;
    }
    kept.push(member);
    used += cost;
  }
  return `${head}{ ${kept.join('; ')} }${tail}`;
}
