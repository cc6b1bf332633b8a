/**
 * A source's tool list, scrubbed of every secret the hub holds before it is stored or shown
 * (invariant I1; issue: security, finding 2). A server that has its credential can put it, or
 * another connection's, into a tool's description, title, parameter names or schema, or into its
 * own name and instructions; all of that reaches `search`, `describe`, the guest's lookups, a
 * pending call's summary and several tables unless it is scrubbed here, once, on the way in.
 *
 * A tool whose own name carries a secret is left out, with a notice: its name is what the hub
 * calls upstream, so it cannot be scrubbed and still called. Tools past the most a source may
 * declare (declared-limits.ts) are left out before anything is scrubbed: never read further.
 *
 * A secret entered after a source was listed (`auth`) is scrubbed from what is already stored
 * with `rescrubStored`, the same way: the contract digests stay, since they are taken over the
 * tool as it was declared.
 *
 * The caller hands in the scrubber (and, to rescrub, the store).
 */

import type { ListedTools } from '../connectors/connector.ts';
import { DECLARED_LIMITS, overCountNotice } from '../connectors/declared-limits.ts';
import type { Manifest } from '../contracts/sources.ts';
import type { HubStore } from '../ports.ts';
import type { Scrubber } from '../secrets/scrub.ts';

export interface ScrubbedList {
  listed: ListedTools;
  /** What was left out, for the person. */
  notices: string[];
}

export function scrubListed(listed: ListedTools, scrubber: Scrubber): ScrubbedList {
  const notices: string[] = [];
  const most = DECLARED_LIMITS.toolsPerSource;
  const over = listed.tools.slice(most).map((tool) => tool.name);
  const tools = listed.tools.slice(0, most).flatMap((tool) => {
    const clean = scrubber.value(tool);
    if (clean.name === tool.name) return [clean];
    notices.push(
      `left out tool ${JSON.stringify(clean.name)}: its name carries a secret this hub holds, so it cannot be shown or called`,
    );
    return [];
  });
  // Only the names shown are scrubbed; the rest are counted.
  if (over.length > 0)
    notices.push(overCountNotice([...over.slice(0, 3).map(scrubber.text), ...over.slice(3)]));
  const result: ListedTools = { tools };
  if (listed.server) result.server = scrubber.value(listed.server);
  if (listed.instructions !== undefined) result.instructions = scrubber.text(listed.instructions);
  if (listed.serverUrl !== undefined) result.serverUrl = listed.serverUrl;
  if (listed.credentials !== undefined) result.credentials = listed.credentials;
  for (const notice of listed.notices ?? []) notices.push(scrubber.text(notice));
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

/**
 * After a secret is entered, what is already stored (manifests and the tools kept in reviews) is
 * scrubbed of it too: a source may have declared it before the hub knew it was a secret. A
 * manifest that changes gets a new fetch time, so every index re-reads it; a tool named after
 * the secret is left out, and what was decided about it goes with it. One transaction.
 */
export function rescrubStored(store: HubStore, scrubber: Scrubber, now: number): void {
  store.atomically(() => {
    for (const manifest of store.listManifests()) {
      const clean = scrubStored(manifest, scrubber);
      if (clean) store.putManifest({ ...clean, fetchedAt: Math.max(now, manifest.fetchedAt + 1) });
      for (const review of store.listReviews(manifest.namespace)) {
        const tool = scrubber.value(review.tool);
        if (JSON.stringify(tool) === JSON.stringify(review.tool)) continue;
        if (tool.name === review.tool.name) {
          store.putReview({ ...review, tool: { ...tool, address: review.address } });
          continue;
        }
        store.removeReview(review.address);
        for (const rule of store.listPolicyRules(review.address)) {
          if (rule.target.kind === 'tool') store.removePolicyRule(rule.id);
        }
      }
    }
  });
}
