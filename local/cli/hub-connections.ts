/**
 * `capabilities hub connections <namespace>` and `capabilities hub auth <namespace>`: a
 * source's connections, and entering a credential. The secret is read at a masked prompt, or
 * from standard input when that is not a terminal; never from an argument, so it never lands
 * in shell history or a process list. This is the person-input path for credentials.
 */
import { type Command, Option } from 'commander';
import {
  describeDelivery as describeSecretDelivery,
  type SecretRef,
} from '../../engine/contracts/connections.ts';
import { HubError } from '../../engine/errors.ts';
import { inertLine } from '../../engine/inert.ts';
import { basicCredential } from '../../engine/openapi/security.ts';
import { hubAction } from './hub-action.ts';
import type { Output } from './output.ts';

interface AuthOptions {
  connection: string;
  env?: string;
  header?: string;
  query?: string;
  cookie?: string;
  basic?: boolean;
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
    .description('Enter a credential for a source at a masked prompt (or on standard input)')
    .argument('<namespace>')
    .option('--connection <name>', 'which connection to store it under', 'default')
    .addOption(
      new Option('--env <VAR>', 'give it to a stdio server as this environment variable').conflicts('header'),
    )
    .option('--header <name>', 'give it to an HTTP server in this header (default: Authorization: Bearer)')
    .option('--query <name>', "give it to an OpenAPI source's API as this query parameter")
    .option('--cookie <name>', "give it to an OpenAPI source's API as this cookie")
    .option('--basic', 'HTTP basic: enter user:password, sent as Authorization: Basic')
    .action(
      hubAction((out, namespace: string, options: AuthOptions) => async ({ sources, desk }) => {
        const source = desk.sources.get(namespace);
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
        const connection = await sources.saveCredential(namespace, options.connection, delivery, value);
        out.result(
          { namespace, connection: connection.name, isDefault: connection.isDefault },
          `Stored the secret for ${namespace}/${connection.name}${connection.isDefault ? ' (the default connection)' : ''}.`,
        );
      }),
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

/** A masked prompt on a terminal; otherwise all of standard input, without its final newline. */
async function readSecret(out: Output, message: string): Promise<string> {
  if (process.stdin.isTTY) {
    if (!out.options.input) {
      throw new HubError('invalid_input', 'with --no-input, pipe the secret on standard input instead');
    }
    const { password } = await import('@inquirer/prompts');
    return password({ message: inertLine(message), mask: '•' });
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}
