/**
 * What the hosted hub adds around a push (engine/configuration/push.ts): which sources it cannot
 * run, and the runs waiting for a person that `hub status` lists. The HubObject builds its
 * ConfigurationPush with `hostedCannotRun` and answers `GET /mcp/hub/status` with `waitingRuns`.
 */

import { privateAddressReason } from '../engine/connectors/private-address.ts';
import type { HostedStatus } from '../engine/contracts/configuration.ts';
import type { Source } from '../engine/contracts/sources.ts';
import type { RunDesk } from '../engine/desk/index.ts';

/** Where a private host leaves a source: on the local hub, which reaches this computer and its network. */
const STAYS_LOCAL = 'it stays on your local hub';

/**
 * Why the hosted hub cannot run `source`, or undefined when it can: a stdio source runs a program
 * on the person's computer; an OpenAPI source read from a file has its document there; an HTTP source whose URL or an allowed host is a private address is
 * refused unless the deployment allows private upstreams (development only).
 */
export function hostedCannotRun(allowPrivate: boolean): (source: Source) => string | undefined {
  return (source) => {
    if (source.kind === 'mcp-stdio') {
      return `runs a program on your computer, which the hosted hub cannot do: ${STAYS_LOCAL}`;
    }
    if (source.kind === 'openapi' && !/^https?:\/\//i.test(source.document)) {
      return `its OpenAPI document is a file on your computer (${source.document}), which the hosted hub cannot read: serve the document at a URL and add that, or ${STAYS_LOCAL}`;
    }
    if (allowPrivate) return undefined;
    const urlReason = privateAddressReason(source.url);
    if (urlReason) {
      return `its URL's host ${new URL(source.url).host} is a private address (${urlReason}), which the hosted hub does not reach: ${STAYS_LOCAL}`;
    }
    for (const host of source.allowedHosts) {
      const reason = hostReason(host);
      if (reason) {
        return `its allowed host ${host} is a private address (${reason}), which the hosted hub does not reach: ${STAYS_LOCAL}`;
      }
    }
    return undefined;
  };
}

/** An allowed host (`name` or `name:port`) judged like a URL's; one no URL can hold is refused. */
function hostReason(host: string): string | undefined {
  try {
    return privateAddressReason(new URL(`https://${host}/`));
  } catch {
    return 'a host name that cannot be read';
  }
}

/** The calls waiting for a person across the hub's waiting runs, newest first. */
export function waitingRuns(runs: RunDesk): HostedStatus['waiting'] {
  return runs
    .list('awaiting_input')
    .flatMap((run) =>
      runs.openInputs(run.id).map((input) => ({
        runId: run.id,
        address: input.address,
        summary: input.summary,
        since: input.createdAt,
      })),
    )
    .sort((a, b) => b.since - a.since);
}
