/**
 * `capabilities hub push` and `capabilities hub status`: the local hub's configuration sent to
 * the hosted hub a person signed in to (`hub login`, in hub-hosted.ts), and the hosted hub's
 * state beside the local one. The logic is in local/hosted/ (push.ts, hosted-status.ts); this
 * file opens what they need and speaks to the person.
 *
 * `push` shows the plan (stdout) and asks before applying it; `--yes` applies the plan shown (and sends
 * every secret offered, with --secrets). With `--json` and no `--yes` it is a dry run: the plan
 * and its hash, nothing asked, no secret sent, nothing applied (a prompt would break the JSON).
 * An OAuth sign-in is never sent, with or without --secrets: push says so for each such connection.
 * The local hub must exist: neither command creates one.
 */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import type { HubConfiguration } from '../../engine/contracts/configuration.ts';
import { HubError } from '../../engine/errors.ts';
import { inertLine } from '../../engine/inert.ts';
import type { HomePaths } from '../home.ts';
import type { OpenHub } from '../open-hub.ts';
import { outputOf } from './hub-action.ts';
import type { Output } from './output.ts';

interface PushOptions {
  secrets?: boolean;
  yes?: boolean;
}

/** Opens the local hub (never creating it) and runs `body` with it, closed afterwards. */
async function onLocalHub<T>(
  out: Output,
  body: (open: OpenHub, configuration: HubConfiguration) => Promise<T>,
): Promise<T> {
  const [{ openHub }, { configurationOf }] = await Promise.all([
    import('../open-hub.ts'),
    import('../../engine/configuration/configuration-of.ts'),
  ]);
  const open = openHub(out);
  try {
    // The scrubber learns every secret the hub holds before anything is printed.
    await open.engine.secrets.refresh();
    return await body(open, configurationOf(open.local.store));
  } finally {
    await open.close();
  }
}

const noHub = (paths: HomePaths, doing: string): HubError =>
  new HubError(
    'not_found',
    `there is no hub at ${paths.hub}, so there is nothing to ${doing}; create it with \`capabilities hub init\` and add its sources first`,
  );

async function pushCommand(options: PushOptions, command: Command): Promise<void> {
  const out = outputOf(command);
  const [{ homePaths }, { openHostedClient }, push, text, review] = await Promise.all([
    import('../home.ts'),
    import('../hosted/hosted-client.ts'),
    import('../hosted/push.ts'),
    import('../hosted/plan-text.ts'),
    import('./review-prompt.ts'),
  ]);
  const paths = homePaths();
  if (!existsSync(paths.hubFile)) throw noHub(paths, 'push');
  const client = await openHostedClient(paths, process.env);
  const interaction = { yes: options.yes === true, input: out.options.input };
  // With --json, nothing is asked: without --yes it is a dry run.
  const dryRun = out.options.json && !interaction.yes;
  if (dryRun && options.secrets) {
    out.note('A dry run (--json without --yes) sends no secret; pass --yes to send them and apply.');
  }
  const outcome = await onLocalHub(out, async (open, configuration) => {
    const { openSecretStore } = await import('../secret-store.ts');
    const where = (offer: { namespace: string; connection: string; delivery: string }) =>
      `${inertLine(offer.namespace)}/${inertLine(offer.connection)} (${inertLine(offer.delivery)})`;
    return push.push({
      client,
      configuration,
      ...(options.secrets && !dryRun
        ? {
            secrets: {
              store: openSecretStore(paths.envFile, (notice) => out.note(notice)),
              consent: async (offer) => {
                if (interaction.yes) {
                  out.note(`Sending the secret of ${where(offer)} to ${client.url}.`);
                  return true;
                }
                const replaces =
                  offer.hosted === 'keep' ? '; the hosted hub has one, which it replaces if they differ' : '';
                return review.confirmOrYes(
                  interaction,
                  `Send the secret of ${where(offer)} to ${client.url}, to keep in its encrypted secret store${replaces}?`,
                  'sending a secret needs your consent to each one: run this in a terminal, or pass --yes to send every secret of the pushed connections',
                );
              },
              absent: (offer) =>
                out.note(
                  `No value for the secret of ${where(offer)} in the local secret store; it is left out (enter it with \`capabilities hub auth ${inertLine(offer.namespace)} --connection ${inertLine(offer.connection)}\`, then push again).`,
                ),
            },
          }
        : {}),
      skillFiles: (names) => pushedSkillFiles(open, names),
      // The plan is what the command is for: on stdout, before the question about it. With
      // --json it is part of the one object printed at the end instead.
      show: (answer) => {
        if (!out.options.json) out.result({}, text.planText(answer.plan, answer.hash, client.url));
      },
      confirmApply: async () =>
        !dryRun &&
        review.confirmOrYes(
          interaction,
          `Apply this plan to ${client.url}?`,
          'applying needs your consent: run this in a terminal, or pass --yes to apply the plan shown',
        ),
    });
  });
  for (const { namespace, connection } of outcome.signInsKept)
    out.note(signInKeptText(namespace, connection));
  const json = {
    plan: outcome.plan,
    hash: outcome.hash,
    applied: outcome.applied,
    ...(outcome.appliedAt === undefined ? {} : { appliedAt: outcome.appliedAt }),
    secretsSent: outcome.secretsSent.map(({ namespace, connection, key }) => ({
      namespace,
      connection,
      key,
    })),
    secretsAbsent: outcome.secretsAbsent.map(({ namespace, connection, key }) => ({
      namespace,
      connection,
      key,
    })),
    signInsKept: outcome.signInsKept,
  };
  if (outcome.plan.empty) {
    return out.result(json, 'The hosted hub already matches this hub; nothing to push.');
  }
  if (!outcome.applied) {
    return out.result(
      json,
      `Not applied: the hosted hub at ${client.url} is unchanged (plan ${text.shortHash(outcome.hash)}).`,
    );
  }
  out.result(
    json,
    `Applied plan ${text.shortHash(outcome.hash)} to ${client.url}: ${text.countsText(text.planCounts(outcome.plan))}.`,
  );
}

/** The files of these skills as the local hub keeps them, in base64, for an apply that adds or changes them. */
function pushedSkillFiles(open: OpenHub, names: readonly string[]) {
  const files: Record<string, { path: string; base64: string }[]> = {};
  for (const name of names) {
    const contents = open.engine.skills.contents(name);
    if (contents === undefined) {
      throw new HubError('not_found', `the skill ${name} left this hub while pushing; push again`);
    }
    files[name] = contents.map((file) => ({
      path: file.path,
      base64: Buffer.from(file.data).toString('base64'),
    }));
  }
  return files;
}

/**
 * What becomes of a pushed connection that signs in with OAuth, said as the hosted hub's own
 * wording (hosted-wording.ts, signInAgain) says it: its sign-in stays here, and calls on it there
 * wait until the person signs in again on the hosted hub.
 */
function signInKeptText(namespace: string, connection: string): string {
  const name = `${inertLine(namespace)}/${inertLine(connection)}`;
  return (
    `${name} signs in with OAuth: its sign-in stays on this machine and is never pushed (its tokens were issued to this computer, and a refresh on the hosted hub would replace them under this hub). ` +
    `Sign in again on the hosted hub (Sign in again on the source's page in its dashboard); until then a call on ${name} there waits for that sign-in.`
  );
}

async function statusCommand(_options: unknown, command: Command): Promise<void> {
  const out = outputOf(command);
  const [{ homePaths }, { openHostedClient }, { hostedStatus, statusText }] = await Promise.all([
    import('../home.ts'),
    import('../hosted/hosted-client.ts'),
    import('../hosted/hosted-status.ts'),
  ]);
  const paths = homePaths();
  const client = await openHostedClient(paths, process.env);
  const report = existsSync(paths.hubFile)
    ? await onLocalHub(out, (_open, configuration) => hostedStatus(client, configuration))
    : await hostedStatus(client, undefined);
  out.result(
    report,
    statusText(report, `There is no local hub at ${paths.hub} to compare with the hosted one.`),
  );
}

export function registerHostedConfig(hub: Command): void {
  hub
    .command('push')
    .description(
      "Send this hub's sources, policies, connections, profiles and skills (never a secret value, unless --secrets) to the hosted hub, after showing the plan",
    )
    .option('--secrets', 'also send the secret values of the pushed connections, asking for each one')
    .option('--yes', 'apply the plan shown without asking (and, with --secrets, send every secret offered)')
    .action(pushCommand);

  hub
    .command('status')
    .description(
      'Show the hosted hub you signed in to: its sources, runs waiting for you, and what differs from this hub',
    )
    .action(statusCommand);
}
