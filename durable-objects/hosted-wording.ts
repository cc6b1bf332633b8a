/**
 * The hosted hub's wording: a person reaches it from claude.ai or a phone, with no terminal, so
 * each way of acting points at the hub's dashboard and never names a command.
 */
import type { HostWording } from '../engine/wording.ts';

export const hostedWording: HostWording = {
  listSources: "see the sources in the hub's dashboard",
  refreshSource: (namespace) => `refresh "${namespace}" in the hub's dashboard`,
  addSource: "add one in the hub's dashboard",
  addStdioSource:
    'A hub in the cloud cannot start a command on your machine: serve the server over Streamable HTTP and add its URL.',
  addSourceAgain: "Add it again in the hub's dashboard",
  enterSecretAgain: (namespace, connection) =>
    `Enter it again for connection "${namespace}/${connection}" on the source's page in the hub's dashboard.`,
  // The hub signs in to an MCP server itself, from the source's page (source-sign-in-routes.tsx);
  // `hub push` never carries the local hub's sign-in (its tokens belong to the local machine's client).
  signInAgain: (namespace, connection) =>
    `use Sign in again for "${namespace}/${connection}" on the source's page in the hub's dashboard`,
  // The same for an OpenAPI source's API: its sign-in runs on a local hub, and stays there.
  signInToApi: (namespace) =>
    `A hub in the cloud cannot sign in to an API with OAuth yet, and a push never carries a local hub's sign-in: call "${namespace}" from a local hub signed in to it, or give it a key if its document takes one.`,
  listRuns: "see the runs in the hub's dashboard",
  decideRun: (runId) => `decide on run ${runId} in the hub's dashboard`,
  decideElsewhere: "decide in the hub's dashboard",
  addConnection: (namespace, connection) =>
    `in the hub's dashboard, under "${!connection || connection === 'default' ? namespace : `${namespace}/${connection}`}"`,
  openDashboard: "sign in to the hub's dashboard again",
  apiServer: "in the add form's API base URL field",
  otherNamespace: 'namespace in the review',
  listProfiles: 'Profiles come from a local hub: create one there, then push the local hub to this one.',
  listSkills: 'Skills come from a local hub: add one there, then push the local hub to this one.',
};
