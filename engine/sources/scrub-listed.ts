/**
 * A source's tool list, scrubbed of every secret the hub holds before it is stored or shown
 * (invariant I1; issue: security, finding 2). A server that has its credential can put it, or
 * another connection's, into a tool's description, title, parameter names or schema, or into its
 * own name and instructions; all of that reaches `search`, `describe`, the guest's lookups, a
 * pending call's summary and several tables unless it is scrubbed here, once, on the way in.
 *
 * A tool whose own name carries a secret is left out, with a notice: its name is what the hub
 * calls upstream, so it cannot be scrubbed and still called.
 *
 * A secret entered after a source was listed (`auth`) is scrubbed from what is already stored
 * with `scrubStored`, the same way: the contract digests stay, since they are taken over the
 * tool as it was declared.
 *
 * Pure: the caller hands in the scrubber.
 */
import type { Manifest } from '../contracts.ts';
import type { Scrubber } from '../secrets/scrub.ts';
import type { ListedTools } from './connector.ts';

export interface ScrubbedList {
  listed: ListedTools;
  /** What was left out, for the person. */
  notices: string[];
}

export function scrubListed(listed: ListedTools, scrubber: Scrubber): ScrubbedList {
  const notices: string[] = [];
  const tools = listed.tools.flatMap((tool) => {
    const clean = scrubber.value(tool);
    if (clean.name === tool.name) return [clean];
    notices.push(
      `left out tool ${JSON.stringify(clean.name)}: its name carries a secret this hub holds, so it cannot be shown or called`,
    );
    return [];
  });
  const result: ListedTools = { tools };
  if (listed.server) result.server = scrubber.value(listed.server);
  if (listed.instructions !== undefined) result.instructions = scrubber.text(listed.instructions);
  return { listed: result, notices };
}

/** A stored manifest scrubbed again, or undefined when it holds nothing the scrubber knows. */
export function scrubStored(manifest: Manifest, scrubber: Scrubber): Manifest | undefined {
  const clean = scrubber.value(manifest);
  if (JSON.stringify(clean) === JSON.stringify(manifest)) return undefined;
  // A tool whose name now scrubs differently cannot be called as it is shown: it goes.
  clean.tools = clean.tools.filter((tool, i) => tool.name === manifest.tools[i]?.name);
  clean.namespace = manifest.namespace;
  return clean;
}
