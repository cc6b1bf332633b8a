/**
 * `capabilities hub connections <namespace>` and `capabilities hub auth <namespace>`: a
 * source's connections, and entering a credential. The secret is read at a masked prompt, or
 * from standard input when that is not a terminal; never from an argument, so it never lands
 * in shell history or a process list. A source that signs in with OAuth (one whose connections
 * already do, or `--oauth`) is signed in again in the person's browser instead, or a second
 * account added with `--connection NAME` (source-sign-in.ts). This is the person-input path for
 * credentials.
 */
import { type Command, Option } from 'commander';
import { basicCredential, type OAuthFlowAsk } from '../../engine/connectors/openapi/security.ts';
import {
  describeDelivery as describeSecretDelivery,
  type SecretRef,
} from '../../engine/contracts/connections.ts';
import type { Source } from '../../engine/contracts/sources.ts';
import { HubError } from '../../engine/errors.ts';
import type { Sources } from '../../engine/sources/sources.ts';
import { hubAction } from './hub-action.ts';
import { readSecret } from './read-secret.ts';

interface AuthOptions {
  connection: string;
  env?: string;
  header?: string;
  query?: string;
  cookie?: string;
  basic?: boolean;
  oauth?: boolean;
  clientId?: string;
  clientSecret?: boolean;
}

export function registerConnections(hub: Command): void {
  hub
    .command('connections')
    .description("List a source's connections (the default is marked *)")
    .argument('<namespace>')
    .action(
      hubAction((out, namespace: string) => async ({ desk }) => {
        const connections = desk.sources.connections(namespace);
        const text =
          connections.length === 0
            ? `"${namespace}" has no connections. Add one with \`capabilities hub auth ${namespace}\`.`
            : connections
                .map(
                  (c) =>
                    `${c.isDefault ? '*' : ' '} ${namespace}/${c.name}  ${c.secrets.map((s) => describeDelivery(s.delivery)).join(', ')}`,
                )
                .join('\n');
        out.result({ connections }, text);
      }),
    );

  hub
    .command('auth')
    .description(
      'Enter a credential for a source at a masked prompt (or on standard input), or sign in with OAuth',
    )
    .argument('<namespace>')
    .option('--connection <name>', 'which connection to store it under', 'default')
    .addOption(
      new Option('--env <VAR>', 'give it to a stdio server as this environment variable').conflicts('header'),
    )
    .option('--header <name>', 'give it to an HTTP server in this header (default: Authorization: Bearer)')
    .option('--query <name>', "give it to an OpenAPI source's API as this query parameter")
    .option('--cookie <name>', "give it to an OpenAPI source's API as this cookie")
    .option('--basic', 'HTTP basic: enter user:password, sent as Authorization: Basic')
    .option(
      '--oauth',
      'sign in with OAuth in your browser (the default for a source already signed in that way)',
    )
    .option('--client-id <id>', 'with OAuth: the client registered for the hub there')
    .option('--client-secret', "with --client-id: ask for that client's secret at a masked prompt")
    .action(
      hubAction((out, namespace: string, options: AuthOptions) => async ({ sources, desk }) => {
        const source = desk.sources.get(namespace);
        // Whether the connection named is a sign-in; a new one is what the default connection is (a
        // second account). Another connection's sign-in beside keys says nothing of this one.
        const connections = desk.sources.connections(namespace);
        const current =
          connections.find((c) => c.name === options.connection) ?? connections.find((c) => c.isDefault);
        const signsIn = current?.secrets.some((s) => s.delivery.kind === 'oauth') ?? false;
        const given = options.env ?? options.header ?? options.query ?? options.cookie ?? options.basic;
        if (options.oauth && source.kind === 'mcp-stdio') {
          throw new HubError(
            'invalid_input',
            `"${namespace}" is a stdio server, and OAuth sign-in is for HTTP sources; nothing was stored. Give it its secret as an environment variable with --env VAR`,
          );
        }
        const signsInHere = source.kind === 'mcp-http' || source.kind === 'openapi';
        if (signsInHere && given === undefined && (options.oauth || signsIn)) {
          const [{ signInFromCli, apiSignInFromCli }, { keptGrant, notRevoked, revokeGrant }] =
            await Promise.all([import('./source-sign-in.ts'), import('../oauth/revoke-grant.ts')]);
          const named = options.connection === 'default' ? '' : ` --connection ${options.connection}`;
          const again = `\`capabilities hub auth ${namespace}${named}${options.oauth ? ' --oauth' : ''}\``;
          const grant =
            source.kind === 'openapi'
              ? await apiSignInFromCli(out, await documentFlow(sources, source), source.url, options, again)
              : await signInFromCli(out, source.url, options, again);
          const former = await keptGrant(namespace, options.connection);
          const connection = await sources
            .saveCredential(namespace, options.connection, { kind: 'oauth' }, JSON.stringify(grant))
            .catch(async (error: unknown) => {
              // A grant that cannot be kept (a token too short, say) is revoked, or it would linger there.
              const why = await revokeGrant(grant);
              if (why) out.note(notRevoked('the sign-in just made', why));
              throw error;
            });
          // The sign-in this one replaces is revoked where it was issued, or it would linger there.
          const why = former && (await revokeGrant(former));
          if (why) out.note(notRevoked('the former sign-in', why));
          out.result(
            { namespace, connection: connection.name, isDefault: connection.isDefault, signedIn: true },
            `Signed in as ${namespace}/${connection.name}${connection.isDefault ? ' (the default connection)' : ''}.`,
          );
          return;
        }
        let delivery: SecretRef['delivery'];
        if (options.env) delivery = { kind: 'env', variable: options.env };
        else if (options.query) delivery = { kind: 'query', name: options.query };
        else if (options.cookie) delivery = { kind: 'cookie', name: options.cookie };
        else if (options.basic) delivery = { kind: 'header', name: 'Authorization', scheme: 'Basic' };
        else if (options.header) delivery = { kind: 'header', name: options.header, scheme: '' };
        else if (source.kind !== 'mcp-stdio')
          delivery = { kind: 'header', name: 'Authorization', scheme: 'Bearer' };
        else {
          throw new HubError(
            'invalid_input',
            `"${namespace}" is a stdio server: say which environment variable takes the secret with --env VAR`,
          );
        }
        const entered = await readSecret(
          out,
          `${options.basic ? 'user:password' : 'Secret'} for ${namespace}/${options.connection} (${describeDelivery(delivery)})`,
        );
        const value = options.basic ? basicCredential(...userAndPassword(entered)) : entered;
        const { keptGrant, notRevoked, revokeGrant } = await import('../oauth/revoke-grant.ts');
        const former = signsIn ? await keptGrant(namespace, options.connection) : undefined;
        const connection = await sources.saveCredential(namespace, options.connection, delivery, value);
        // A key replaces the connection's sign-in: its grant is revoked where it was issued.
        const why = former && (await revokeGrant(former));
        if (why) out.note(notRevoked('the sign-in this key replaces', why));
        out.result(
          { namespace, connection: connection.name, isDefault: connection.isDefault },
          `Stored the secret for ${namespace}/${connection.name}${connection.isDefault ? ' (the default connection)' : ''}.`,
        );
      }),
    );
}

/**
 * The OAuth 2 flow an OpenAPI source's document names, read again now (its authorization and
 * token URLs are the service's to move); a document that names none says so.
 */
async function documentFlow(
  sources: Sources,
  source: Extract<Source, { kind: 'openapi' }>,
): Promise<OAuthFlowAsk> {
  const inspection = await sources.inspect({
    kind: 'openapi',
    document: source.document,
    server: source.url,
  });
  const flow = inspection.credentials.find((ask) => ask.oauth !== undefined)?.oauth;
  if (flow) return flow;
  throw new HubError(
    'invalid_input',
    `the OpenAPI document of "${source.namespace}" names no OAuth 2 authorization code flow, so there is nothing to sign in to; enter its key with \`capabilities hub auth ${source.namespace}\` (with --header, --query, --cookie or --basic as its document says)`,
  );
}

function describeDelivery(delivery: SecretRef['delivery']): string {
  if (delivery.kind === 'header')
    return `header ${delivery.name}${delivery.scheme ? `: ${delivery.scheme} …` : ''}`;
  return describeSecretDelivery(delivery);
}

/** `user:password` split at its first colon, or a clear error. */
function userAndPassword(entered: string): [string, string] {
  const at = entered.indexOf(':');
  if (at <= 0)
    throw new HubError(
      'invalid_input',
      'with --basic, enter user:password (a colon between them); nothing was stored',
    );
  return [entered.slice(0, at), entered.slice(at + 1)];
}
