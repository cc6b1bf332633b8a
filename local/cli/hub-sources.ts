/**
 * `capabilities hub add | list | remove | refresh | review`: managing sources. `add` asks for
 * consent to a stdio command before running it, and separately, explicitly, when the command or
 * its settings reach the hub's own home (a filesystem server rooted at `~`); then it fetches the
 * tool list, proposes a namespace and shows the review, with a notice for anything the hub left
 * out. A server that answers 401 asks the person to sign in with OAuth first
 * (source-sign-in.ts); the grant becomes the source's default connection. The source is stored
 * whole, with its sign-in, or not at all: a sign-in not kept (cancelled, or anything after it
 * failed) is revoked where it was issued.
 */

import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { namespaceOf } from '../../engine/address.ts';
import type { Source } from '../../engine/contracts/sources.ts';
import { HubError, isHubError } from '../../engine/errors.ts';
import { inertLine } from '../../engine/inert.ts';
import type { OAuthGrant } from '../../engine/secrets/oauth-grant.ts';
import type { Inspection, Refreshed, SourceDraft, Sources } from '../../engine/sources/sources.ts';
import { hubAction } from './hub-action.ts';
import type { Output } from './output.ts';
import type { Interaction } from './review-prompt.ts';

interface AddOptions {
  namespace?: string;
  server?: string;
  clientId?: string;
  clientSecret?: boolean;
  yes?: boolean;
  env?: string[];
  allowHome?: boolean;
}

/** `KEY=VALUE` pairs for a stdio server's environment: settings, never secrets (those go through `auth`). */
function parseEnv(pairs: readonly string[] = []): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(pair);
    if (!match?.[1]) {
      throw new HubError(
        'invalid_input',
        `--env takes KEY=VALUE, e.g. --env MEMORY_FILE_PATH=/tmp/m.jsonl; got "${pair}"`,
      );
    }
    env[match[1]] = match[2] ?? '';
  }
  return env;
}

function interaction(output: Output, yes: boolean | undefined): Interaction {
  return { yes: yes === true, input: output.options.input };
}

export function registerSources(hub: Command): void {
  hub
    .command('add')
    .description(
      'Add a source: a URL (Streamable HTTP), an OpenAPI document (URL or file), or -- and a stdio command line',
    )
    .argument('<source...>', 'https://…, an OpenAPI document, or, after --, the command and its arguments')
    .option(
      '--namespace <name>',
      'the name its tools appear under in code (default: proposed from the server)',
    )
    .option('--server <url>', "an OpenAPI document's API base URL (default: the document's first server)")
    .option('--yes', 'accept the proposed policies (and consent to the command) without asking')
    .option(
      '--allow-home',
      "with --yes: consent to a command that reaches the hub's own home (its store, token and secrets file)",
    )
    .option(
      '--client-id <id>',
      'for a server that signs in with OAuth: the client registered for the hub there (default: register on its own)',
    )
    .option('--client-secret', "with --client-id: ask for that client's secret at a masked prompt")
    .option(
      '--env <KEY=VALUE>',
      "a stdio server's setting as an environment variable, repeatable (secrets go through `auth`)",
      (pair: string, all: string[]) => [...all, pair],
      [] as string[],
    )
    .action(
      hubAction(async (out, parts: string[], options: AddOptions) => {
        const [review, { homeExposure, runsInside }, { homePaths }, openapi] = await Promise.all([
          import('./review-prompt.ts'),
          import('../home-exposure.ts'),
          import('../home.ts'),
          import('./openapi-add.ts'),
        ]);
        const ask = interaction(out, options.yes);
        // Given without `--`, it is a URL or a document: said what is wrong before anything runs.
        const { judgeSourceRef } = await import('./source-ref.ts');
        const afterDashes = process.argv.includes('--');
        judgeSourceRef(parts, afterDashes);
        const first = parts[0] ?? '';
        const document = afterDashes ? undefined : await openapi.openApiDocument(first);
        if (options.server !== undefined && document === undefined) {
          throw new HubError(
            'invalid_input',
            `--server is for an OpenAPI document, and ${first} is not one (no "openapi" or "swagger" member at its top)`,
          );
        }
        if (document !== undefined) {
          if (Object.keys(parseEnv(options.env)).length > 0)
            throw new HubError('invalid_input', '--env is for a stdio server; an OpenAPI source takes none');
          return openapi.addDocument(out, {
            document,
            server: options.server,
            namespace: options.namespace,
            ask,
            signIn: { clientId: options.clientId, clientSecret: options.clientSecret },
          });
        }
        const isUrl = parts.length === 1 && /^https?:\/\//i.test(first);
        const env = parseEnv(options.env);
        if (isUrl && Object.keys(env).length > 0) {
          throw new HubError(
            'invalid_input',
            '--env is for a stdio server; an HTTP server takes no environment',
          );
        }
        const shown = [...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...parts].join(' ');
        return async ({ sources }) => {
          if (!isUrl) {
            await review.confirmOrYes(
              ask,
              `This source runs \`${shown}\` in ${process.cwd()} on your machine, as you. Run it?`,
              `this source runs \`${shown}\`; pass --yes to consent to that exact command`,
            );
            const paths = homePaths();
            const home = paths.root;
            const places = [paths.hub, paths.envFile];
            const reaching = homeExposure(parts, env, places).map((part) => `\`${part}\``);
            if (runsInside(process.cwd(), places)) reaching.push(`the folder it runs in, ${process.cwd()},`);
            if (reaching.length > 0) {
              const what = reaching.join(', ');
              const warning =
                `${what} reaches this hub's own home, ${home}: the source could read the hub's store, ` +
                'its HTTP token and the secrets file, and its read-only tools run without asking';
              const allowed = options.allowHome
                ? true
                : await review.confirmOrYes(
                    { yes: false, input: ask.input },
                    `${warning}. Add it anyway?`,
                    `${warning}; pass --allow-home as well to consent to that, or point it somewhere else`,
                  );
              if (!allowed) {
                out.result({ added: false }, 'Kept the hub out of its reach; nothing was added.');
                return;
              }
            }
          }
          out.note(isUrl ? `Connecting to ${first}…` : `Starting \`${parts.join(' ')}\`…`);
          const draft: SourceDraft = isUrl
            ? { kind: 'mcp-http', url: first }
            : { kind: 'mcp-stdio', command: parts, env, cwd: process.cwd(), consented: true };
          let grant: OAuthGrant | undefined;
          let inspection: Inspection;
          try {
            inspection = await sources.inspect(draft, options.namespace);
          } catch (error) {
            // A server that asks for a sign-in: the person signs in, then its tools are listed with the grant.
            if (!isUrl || !isHubError(error, 'unauthorized')) throw error;
            out.note(`${new URL(first).origin} asks you to sign in.`);
            const { signInFromCli, grantCredentials } = await import('./source-sign-in.ts');
            const signedIn = await signInFromCli(out, first, options, `\`capabilities hub add ${first}\``);
            grant = signedIn;
            inspection = await revokingOnFailure(out, grant, () =>
              sources.inspect(draft, options.namespace, grantCredentials(signedIn)),
            );
          }
          const listed = inspection;
          // From the sign-in on, a failure (the review, storing the source, keeping its grant)
          // revokes the fresh grant before it goes on: nothing is half-added, nothing lingers.
          const effects = await revokingOnFailure(out, grant, async () => {
            out.note(`Found ${listed.manifest.tools.length} tools; namespace "${listed.source.namespace}".`);
            for (const notice of listed.notices) out.note(`  The hub ${inertLine(notice)}`);
            const decided = await review.decideReview(listed.review, ask, out);
            if (!decided) return undefined;
            sources.addSource(listed, decided);
            if (grant) await keepGrant(sources, listed.source.namespace, grant);
            return decided;
          });
          if (!effects) {
            if (grant) await revokeQuietly(out, [grant]);
            out.result({ added: false }, 'Cancelled; nothing was added.');
            return;
          }
          const counts = review.countEffects(effects);
          out.result(
            {
              added: true,
              namespace: inspection.source.namespace,
              tools: inspection.manifest.tools.length,
              policies: counts,
              notices: inspection.notices,
              ...(grant ? { connection: 'default' } : {}),
            },
            `Added "${inspection.source.namespace}" with ${inspection.manifest.tools.length} tools ` +
              `(${counts.allow} allow, ${counts.ask} ask, ${counts.deny} deny), each pinned to its contract.` +
              (grant ? ` Signed in as connection ${inspection.source.namespace}/default.` : ''),
          );
        };
      }),
    );

  hub
    .command('list')
    .description('List sources')
    .action(
      hubAction((out) => async ({ desk }) => {
        const rows = desk.sources.list().map(({ source, tools, connections, toReview, listedAt }) => ({
          namespace: source.namespace,
          kind: source.kind,
          target: describeSource(source),
          tools,
          listed: listedAt !== null,
          connections: connections.map((c) => (c.isDefault ? `${c.name}*` : c.name)),
          toReview,
        }));
        const text =
          rows.length === 0
            ? 'No sources yet. Add one with `capabilities hub add <url>` or `capabilities hub add -- <command>`.'
            : rows
                .map(
                  (r) =>
                    `${r.namespace}  ${r.kind}  ${r.target}\n    ` +
                    (r.listed
                      ? `${r.tools} tools`
                      : `no tool list yet: fix what stops it, then \`capabilities hub refresh ${r.namespace}\``) +
                    (r.connections.length ? `, connections: ${r.connections.join(', ')}` : '') +
                    (r.toReview ? `, ${r.toReview} to review` : ''),
                )
                .join('\n');
        out.result({ sources: rows }, text);
      }),
    );

  hub
    .command('remove')
    .description('Remove a source with its tools, connections, policies and stored secrets')
    .argument('<namespace>')
    .option('--yes', 'remove without asking')
    .action(
      hubAction((out, namespace: string, options: { yes?: boolean }) => async ({ sources, desk }) => {
        desk.sources.get(namespace);
        const review = await import('./review-prompt.ts');
        const sure = await review.confirmOrYes(
          interaction(out, options.yes),
          `Remove "${namespace}" with its connections, policies and stored secrets?`,
          `removing "${namespace}" deletes its connections and secrets; pass --yes to confirm`,
        );
        if (!sure) {
          out.result({ removed: false }, 'Kept it.');
          return;
        }
        const { keptGrant } = await import('../oauth/revoke-grant.ts');
        const grants: OAuthGrant[] = [];
        for (const connection of desk.sources.connections(namespace)) {
          const signedIn = connection.secrets.some((ref) => ref.delivery.kind === 'oauth');
          const grant = signedIn ? await keptGrant(namespace, connection.name) : undefined;
          if (grant) grants.push(grant);
        }
        // In the source's history as the OS user's, as the local dashboard records its changes.
        await sources.removeSource(namespace, userInfo().username);
        await revokeQuietly(out, grants);
        out.result({ removed: true, namespace }, `Removed "${namespace}".`);
      }),
    );

  hub
    .command('refresh')
    .description('Read tool lists again and report new, changed and removed tools')
    .argument('[namespace]')
    .action(
      hubAction((out, namespace: string | undefined) => async ({ sources, desk }) => {
        const namespaces = namespace ? [namespace] : desk.sources.namespaces();
        const results: ({ namespace: string } & Refreshed)[] = [];
        for (const ns of namespaces) {
          out.note(`Refreshing "${ns}"…`);
          results.push({ namespace: ns, ...(await sources.refresh(ns)) });
        }
        const waiting = sources.pendingReview(namespace).length;
        const lines = results.map(describeDiff);
        if (waiting > 0)
          lines.push(`${waiting} tools wait for review and ask until then: \`capabilities hub review\`.`);
        out.result({ refreshed: results, toReview: waiting }, lines.join('\n') || 'No sources to refresh.');
      }),
    );

  hub
    .command('review')
    .description('Decide new and changed tools')
    .argument('[namespace]')
    .option('--yes', 'accept the proposed policies without asking')
    .action(
      hubAction((out, namespace: string | undefined, options: { yes?: boolean }) => async ({ sources }) => {
        const review = await import('./review-prompt.ts');
        const items = sources.pendingReview(namespace);
        if (items.length === 0) {
          out.result({ reviewed: 0 }, 'Nothing to review: every tool is as you approved it.');
          return;
        }
        const effects = await review.decideReview(items, interaction(out, options.yes), out);
        if (!effects) {
          out.result({ reviewed: 0 }, 'Cancelled; those tools still ask.');
          return;
        }
        // A prompt can stay open for minutes: record only the contracts the person was shown.
        const shown = new Map(items.map((item) => [item.address, item.tool.contract]));
        for (const ns of new Set(items.map((item) => namespaceOf(item.address)))) {
          const mine = new Map([...effects].filter(([address]) => address.startsWith(`${ns}.`)));
          sources.acceptReview(ns, mine, shown, userInfo().username);
        }
        out.result(
          { reviewed: effects.size, policies: Object.fromEntries(effects) },
          `Reviewed ${effects.size} tools.`,
        );
      }),
    );
}

/** Revokes OAuth grants the hub lets go of, telling the person of any it could not. */
async function revokeQuietly(out: Output, grants: readonly OAuthGrant[]): Promise<void> {
  const { notRevoked, revokeGrant } = await import('../oauth/revoke-grant.ts');
  for (const grant of grants) {
    const why = await revokeGrant(grant);
    if (why) out.note(notRevoked(`the sign-in at ${new URL(grant.authorization_server).origin}`, why));
  }
}

/** Runs `body`; when it fails, the fresh `grant` (if any) is revoked where it was issued first. */
async function revokingOnFailure<T>(
  out: Output,
  grant: OAuthGrant | undefined,
  body: () => Promise<T>,
): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (grant) await revokeQuietly(out, [grant]);
    throw error;
  }
}

/**
 * Keeps a new source's sign-in as its default connection; a source whose grant could not be kept
 * is removed again, so nothing is half-added.
 */
async function keepGrant(sources: Sources, namespace: string, grant: OAuthGrant): Promise<void> {
  try {
    await sources.saveCredential(namespace, 'default', { kind: 'oauth' }, JSON.stringify(grant));
  } catch (error) {
    await sources.removeSource(namespace);
    throw error;
  }
}

function describeSource(source: Source): string {
  if (source.kind === 'openapi') return inertLine(`${source.url} (OpenAPI ${source.document})`);
  return inertLine(source.kind === 'mcp-stdio' ? source.command.join(' ') : source.url);
}

/** One line per tool; addresses and notices are inert, since the tool names behind them are the source's. */
function describeDiff(diff: { namespace: string } & Refreshed): string {
  const parts = [
    ...diff.added.map((a) => `  new      ${inertLine(a)}`),
    ...diff.changed.map((c) => `  changed  ${inertLine(c.address)}: ${c.parts.join(', ')}`),
    ...diff.removed.map((r) => `  removed  ${inertLine(r)}`),
    ...diff.notices.map((n) => `  limit    the hub ${inertLine(n)}`),
  ];
  return parts.length === 0 ? `${diff.namespace}: no changes` : `${diff.namespace}:\n${parts.join('\n')}`;
}
