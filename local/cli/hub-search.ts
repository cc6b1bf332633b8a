/**
 * `capabilities hub search [query…] [--namespace N] [--limit n] [--profile P]`: what an agent's
 * `search` answers, for a person checking what their agents will find. The text is the search
 * tool's own answer for the profile (default `default`), scrubbed like everything the CLI prints
 * and shown inert (engine/inert.ts): tool descriptions are an upstream's words. An empty query
 * lists the namespaces, or with `--namespace` that namespace's tools, as the tool does. A profile
 * in direct mode serves no search: the command says so, and how to see what it serves.
 */

import type { Command } from 'commander';
import { HubError } from '../../engine/errors.ts';
import { inertText } from '../../engine/inert.ts';
import { MAX_LIMIT } from '../../engine/search/index.ts';
import { hubAction } from './hub-action.ts';

interface SearchOptions {
  namespace?: string;
  limit?: string;
  profile: string;
}

export function registerSearch(hub: Command): void {
  hub
    .command('search')
    .description("Search the hub's tools as an agent's search tool does, and print its answer")
    .argument('[query...]', 'what to look for, in words (empty: list the namespaces)')
    .option('--namespace <namespace>', 'only this namespace (with no query: list its tools)')
    .option('--limit <n>', `at most this many tools (1 to ${MAX_LIMIT}; default 8)`)
    .option('--profile <name>', "answer as this profile's endpoint does", 'default')
    .action(
      hubAction((out, words: string[], options: SearchOptions) => {
        const limit = options.limit === undefined ? undefined : Number(options.limit);
        if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= MAX_LIMIT)) {
          throw new HubError('invalid_input', `--limit takes a whole number from 1 to ${MAX_LIMIT}`);
        }
        const input = {
          query: words.join(' '),
          ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
          ...(limit === undefined ? {} : { limit }),
        };
        return async (engine) => {
          const lookup = engine.lookupFor(options.profile);
          if (lookup.mode() === 'direct') {
            throw new HubError(
              'invalid_input',
              `profile "${options.profile}" serves its tools directly (direct mode), so its agents have no search. ` +
                `See what it serves with \`capabilities hub profiles show ${options.profile}\`.`,
            );
          }
          const text = engine.secrets.scrubber.text(lookup.search(input));
          out.result({ profile: options.profile, ...input, text }, inertText(text));
        };
      }),
    );
}
