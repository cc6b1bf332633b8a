/**
 * Questions and the tools that answer them. A query asked as a question ("is anyone waiting on my
 * review", "what did we ship this week") wants to know something, so it leans toward tools that
 * read: those the source marks read-only, or, unmarked, those whose name starts with a reading
 * verb (`get_issue`, `slack_list_channels`, `hubspotSearchObjects`). A tool marked otherwise, or
 * named for a change (`create_issue`), gets no lean.
 */
import type { IndexedDocument } from './document.ts';
import { words } from './tokenize.ts';

/** Words a question starts with. */
const QUESTION_WORDS = new Set([
  'what',
  'which',
  'who',
  'whom',
  'whose',
  'where',
  'when',
  'why',
  'how',
  'is',
  'are',
  'was',
  'were',
  'do',
  'does',
  'did',
  'has',
  'have',
  'had',
  'can',
  'could',
  'any',
  'anyone',
  'anybody',
  'anything',
  'should',
  'will',
]);

/** Verbs a tool that only reads is named with. */
const READ_VERBS = new Set([
  'get',
  'list',
  'search',
  'find',
  'read',
  'fetch',
  'show',
  'view',
  'query',
  'describe',
  'count',
  'lookup',
  'look',
  'check',
  'retrieve',
  'explain',
  'analyze',
  'inspect',
  'browse',
  'whoami',
  'my',
]);

/** Verbs a tool that changes something is named with. */
const WRITE_VERBS = new Set([
  'create',
  'add',
  'update',
  'delete',
  'remove',
  'post',
  'send',
  'set',
  'put',
  'patch',
  'edit',
  'write',
  'move',
  'rename',
  'merge',
  'close',
  'assign',
  'upload',
  'install',
  'apply',
  'run',
  'execute',
  'exec',
  'click',
  'navigate',
  'type',
  'fill',
  'press',
  'drag',
  'push',
  'publish',
  'approve',
  'cancel',
  'scale',
  'rollout',
  'insert',
  'drop',
  'kill',
  'stop',
  'start',
  'restart',
  'reply',
  'archive',
  'invite',
  'mark',
  'resolve',
  'comment',
  'react',
  'save',
  'import',
  'export',
]);

/** How many of a name's first words are read to find its verb (past a source prefix: `slack_`). */
const VERB_WINDOW = 3;

/** True for a verb tools are named with (`get`, `create`): not a word that says what a source holds. */
export function isVerb(word: string): boolean {
  return READ_VERBS.has(word) || WRITE_VERBS.has(word);
}

/** Words that open a polite request rather than a question: "can you create…", "could we post…". */
const REQUEST_OPENERS = new Set(['can', 'could', 'will', 'would']);
const REQUEST_SUBJECTS = new Set(['you', 'we', 'i', 'u']);

/**
 * True when `text` asks something: it starts with a question word or ends with `?`; a polite
 * request ("can you create an issue?") asks for a change, not to know something.
 */
export function isQuestion(text: string): boolean {
  const [first, second] = words(text);
  if (
    first !== undefined &&
    REQUEST_OPENERS.has(first) &&
    second !== undefined &&
    REQUEST_SUBJECTS.has(second)
  ) {
    return false;
  }
  if (text.trimEnd().endsWith('?')) return true;
  return first !== undefined && QUESTION_WORDS.has(first);
}

/** True when the document is a tool that only reads, by its annotation or else by its name's verb. */
export function onlyReads(doc: IndexedDocument): boolean {
  if (doc.kind !== 'tool') return false;
  const hint = doc.annotations?.readOnlyHint;
  if (hint !== undefined) return hint;
  for (const word of words(doc.name).slice(0, VERB_WINDOW)) {
    if (READ_VERBS.has(word)) return true;
    if (WRITE_VERBS.has(word)) return false;
  }
  return false;
}
