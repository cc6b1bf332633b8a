/**
 * The plain text of a `search` answer (spec: The MCP surface, search):
 *
 *   github  (connections: personal*, work)
 *     github.createIssue(input: { owner: string; … }): Promise<Issue>   [asks]
 *       Create an issue in a repository.
 *
 * Tools are grouped by namespace, groups in the order of their best tool, tools in the order
 * given; skills that rank among them are grouped under `skills`, each its describe target marked
 * `[skill]` (`skill:pdf-forms   [skill]`) and its first sentence. A group's header lists its
 * source's connections by name with the default marked `*`, or is the bare namespace when it has
 * none. Each tool is its one-line signature (from typegen,
 * injected), `   [asks]` when the current policy would ask, and the first sentence of its
 * description, indented four spaces.
 *
 * Pure formatting: what is shown, and the lines around it, are decided by search.ts.
 */
import type { Connection } from '../contracts/connections.ts';
import type { PolicyEffect } from '../contracts/policy.ts';
import type { HostWording } from '../wording.ts';
import type { IndexedDocument, SkillDocument, ToolDocument } from './document.ts';

/** What the answer needs from the rest of the hub, injected so search depends on none of it. */
export interface SearchDeps {
  /**
   * The tool's one-line TypeScript signature, `github.createIssue(input: {…}): Promise<Issue>`
   * (the document's own, when it was made with one).
   */
  signatureOf(doc: ToolDocument): string;
  /** What the current policy would do with a call to the tool; `deny` hides it. */
  effectOf(doc: ToolDocument): PolicyEffect;
  /** The source's connections (the default one has `isDefault`); none is fine. */
  connectionsOf(namespace: string): readonly Connection[];
  /** How a person acts, in the host's words (adding a first source). */
  wording: HostWording;
  /** Every source's namespace, listed or not: a hub whose sources have no tool list is not empty. */
  sources(): readonly string[];
  /** A source's own words about itself (its server's instructions), for an answer far from the query. */
  aboutOf?(namespace: string): string | undefined;
}

/** `(connections: personal*, work)`: names sorted, the default marked `*`; '' when there are none. */
export function connectionsNote(connections: readonly Connection[]): string {
  if (connections.length === 0) return '';
  const names = connections
    .map((connection) => (connection.isDefault ? `${connection.name}*` : connection.name))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `(connections: ${names.join(', ')})`;
}

/** Parts of a line set apart by two spaces, empty parts left out. */
export function spaced(...parts: string[]): string {
  return parts.filter((part) => part !== '').join('  ');
}

/** A group's header: `github  (connections: personal*, work)`, or `github` with no connections. */
export function namespaceHeader(namespace: string, connections: readonly Connection[]): string {
  return spaced(namespace, connectionsNote(connections));
}

/** A tool's lines: its signature (with `[asks]` when the policy would ask) and its first sentence. */
export function toolLines(doc: ToolDocument, effect: PolicyEffect, deps: SearchDeps): string[] {
  const signature = `  ${deps.signatureOf(doc)}${effect === 'ask' ? '   [asks]' : ''}`;
  return doc.summary === '' ? [signature] : [signature, `    ${doc.summary}`];
}

/** The marker a skill's line carries, so a model tells it from a tool it can call. */
export const SKILL_MARKER = '[skill]';

/** A skill's lines: its describe target with the marker, and its first sentence. */
export function skillLines(doc: SkillDocument): string[] {
  const target = `  ${doc.address}   ${SKILL_MARKER}`;
  return doc.summary === '' ? [target] : [target, `    ${doc.summary}`];
}

/**
 * Documents grouped under their namespace's header (skills under `skills`): groups in the order
 * their first document appears, documents in the given order within a group.
 */
export function renderGroups(
  docs: readonly IndexedDocument[],
  effectOf: (doc: ToolDocument) => PolicyEffect,
  deps: SearchDeps,
): string[] {
  const groups = new Map<string, IndexedDocument[]>();
  for (const doc of docs) {
    const group = groups.get(doc.namespace);
    if (group === undefined) groups.set(doc.namespace, [doc]);
    else group.push(doc);
  }
  const lines: string[] = [];
  for (const [namespace, group] of groups) {
    lines.push(namespace === '' ? 'skills' : namespaceHeader(namespace, deps.connectionsOf(namespace)));
    for (const doc of group) {
      lines.push(...(doc.kind === 'skill' ? skillLines(doc) : toolLines(doc, effectOf(doc), deps)));
    }
  }
  return lines;
}

/** `1 tool` / `3 tools`, and the like. */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
