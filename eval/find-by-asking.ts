/**
 * How a model finds its tools from what the person said, for the outcome tasks' code-arm scripts
 * (tasks/outcome-tasks.ts): it searches first with the person's own words, then, while a tool it
 * needs has not been shown, searches again with only the words it has read so far (the prompt's,
 * and those of the answers before: tool names split on `_` and camelCase, namespaces, summaries,
 * signatures), then describes the tools it will call.
 *
 * The rule is enforced, not trusted. A retry lists the searches a model would choose between, best
 * first (`post message slack channel` if it has read those words, else slack's list if an answer
 * named slack, else the list of namespaces); the first one whose every word, and namespace, the
 * model has read is sent, one it has not read never is, and a retry left with none throws. A tool
 * still unshown after the last retry throws too: the eval then says the run failed, as a model
 * would fail. Each search is its own turn.
 */
import type { ScriptedModel, ToolReply } from './task.ts';

/** One search the model sends. */
export interface Search {
  query: string;
  /** Only a namespace an earlier answer showed. */
  namespace?: string;
  /** More hits than the default 8 (up to 25), as an answer listing a namespace suggests. */
  limit?: number;
}

/** One retry: for `seeking` (skipped once all of them are shown), the first of `choices` the model can send. */
export interface Retry {
  seeking: readonly string[];
  choices: readonly Search[];
}

export interface Found {
  /** describe's answer for the needed tools. */
  described: ToolReply;
  /** The searches sent: the first and every retry's. */
  searches: number;
}

export const seek = (seeking: readonly string[], ...choices: Search[]): Retry => ({ seeking, choices });

/**
 * The two retries for `seeking` in `namespace`: the first of `queries` the model can send, else the
 * namespace's list if an answer named it, else the list of namespaces; then the same again (the
 * namespaces' list has named it by then).
 */
export function seekIn(
  namespace: string,
  seeking: readonly string[],
  queries: readonly Search[] = [],
  limit?: number,
): Retry[] {
  const list: Search = limit === undefined ? { query: '', namespace } : { query: '', namespace, limit };
  return [seek(seeking, ...queries, list, { query: '' }), seek(seeking, ...queries, list)];
}

/** The words of `text`: split on anything but letters, lowercased, camelCase parts added. */
export function wordsOf(text: string): Set<string> {
  const words = new Set<string>();
  for (const token of text.split(/[^\p{L}]+/u)) {
    if (token === '') continue;
    words.add(token.toLowerCase());
    for (const part of token.match(/\p{Lu}+(?!\p{Ll})|\p{Lu}?\p{Ll}+/gu) ?? []) words.add(part.toLowerCase());
  }
  return words;
}

/** The words of a query as the rule reads them: split on anything but letters, lowercased. */
export const queryWords = (query: string) =>
  query
    .split(/[^\p{L}]+/u)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());

/** The identifiers of an answer (`slack` of a header, of `slack.slack_post_message`, of a list). */
export const identifiersOf = (text: string) => new Set(text.split(/[^A-Za-z0-9_-]+/));

/** Whether `answer` showed the tool at `address` (its signature line). */
export const shows = (answer: string, address: string) => answer.includes(`${address}(`);

const keyOf = (search: Search) => JSON.stringify([search.query, search.namespace, search.limit]);

/** What the model has read (the prompt, then every answer) and the searches it has sent. */
class Reading {
  private readonly words: Set<string>;
  private readonly answers: string[] = [];
  private readonly sent = new Set<string>();

  constructor(prompt: string) {
    this.words = wordsOf(prompt);
  }

  read(search: Search, answer: string): void {
    this.sent.add(keyOf(search));
    this.answers.push(answer);
    for (const word of wordsOf(answer)) this.words.add(word);
  }

  /** Why the model would not send `search` (unread words, an unshown namespace, sent already). */
  refusal(search: Search): string | undefined {
    const words = queryWords(search.query).filter((word) => !this.words.has(word));
    if (words.length > 0)
      return `"${search.query}" uses ${words.map((word) => `"${word}"`).join(', ')}, in neither the prompt nor an answer`;
    const { namespace } = search;
    if (namespace !== undefined && !this.answers.some((answer) => identifiersOf(answer).has(namespace)))
      return `namespace "${namespace}" was in no answer`;
    if (this.sent.has(keyOf(search)))
      return `"${search.query}"${namespace ? ` in ${namespace}` : ''} was sent already`;
    return undefined;
  }

  /** The first choice the model can send; throws when there is none. */
  choose(retry: Retry): Search {
    const why: string[] = [];
    for (const search of retry.choices) {
      const refusal = this.refusal(search);
      if (refusal === undefined) return search;
      why.push(refusal);
    }
    throw new Error(
      `no search left for ${this.missing(retry.seeking).join(', ')} from the person's words: ${why.join('; ')}`,
    );
  }

  missing(needed: readonly string[]): string[] {
    return needed.filter((address) => !this.answers.some((answer) => shows(answer, address)));
  }
}

const input = ({ query, namespace, limit }: Search): Record<string, unknown> => ({
  query,
  ...(namespace === undefined ? {} : { namespace }),
  ...(limit === undefined ? {} : { limit }),
});

/**
 * Searches with `ask` (the prompt, or a phrase cut from it word for word), then, while any of
 * `needed` is unshown, makes each retry still seeking an unshown tool (one search a turn), then
 * describes `needed` in one turn.
 */
export async function findByAsking(
  model: ScriptedModel,
  prompt: string,
  needed: readonly string[],
  retries: readonly Retry[] = [],
  ask: string = prompt,
): Promise<Found> {
  if (!prompt.includes(ask)) throw new Error(`the first search "${ask}" is not the person's words`);
  const reading = new Reading(prompt);
  const first: Search = { query: ask };
  const [answer] = await model.use({ name: 'search', input: input(first) });
  reading.read(first, answer?.text ?? '');
  let searches = 1;
  for (const retry of retries) {
    if (reading.missing(needed).length === 0) break;
    if (reading.missing(retry.seeking).length === 0) continue;
    const search = reading.choose(retry);
    const [again] = await model.use({ name: 'search', input: input(search) });
    reading.read(search, again?.text ?? '');
    searches++;
  }
  const lost = reading.missing(needed);
  if (lost.length > 0)
    throw new Error(
      `search did not show ${lost.join(', ')} after ${searches} searches from the person's words`,
    );
  const [described] = await model.use({ name: 'describe', input: { targets: [...needed] } });
  if (!described) throw new Error('describe gave no answer');
  return { described, searches };
}
