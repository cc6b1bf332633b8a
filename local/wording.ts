/**
 * The local hub's wording: a person acts through the CLI, so each way of acting names the exact
 * `capabilities hub` command to run.
 */
import type { HostWording } from '../engine/wording.ts';

export const localWording: HostWording = {
  listSources: 'list sources with `capabilities hub list`',
  refreshSource: (namespace) => `run \`capabilities hub refresh ${namespace}\``,
  addSource:
    'add one with `capabilities hub add <ref>`, or import the servers their agents already use with `capabilities hub import`',
  addStdioSource:
    'A command needs your consent to its exact command line, asked in a terminal: add it with `capabilities hub add -- <command>`.',
  addSourceAgain: 'Add it again with `capabilities hub add`',
  enterSecretAgain: (namespace, connection) =>
    `Enter it again with \`capabilities hub auth ${namespace} --connection ${connection}\`.`,
  signInAgain: (namespace, connection) =>
    `\`capabilities hub auth ${namespace}${connection === 'default' ? '' : ` --connection ${connection}`}\``,
  signInToApi: (namespace, connection) =>
    `Once it is added, sign in from a terminal with \`capabilities hub auth ${namespace} --oauth${connection === 'default' ? '' : ` --connection ${connection}`}\`.`,
  listRuns: 'list runs with `capabilities hub runs`',
  decideRun: (runId) => `run \`capabilities hub approve ${runId}\``,
  decideElsewhere: 'decide with `capabilities hub approve`',
  addConnection: (namespace, connection) =>
    `\`capabilities hub auth ${namespace}${!connection || connection === 'default' ? '' : ` --connection ${connection}`}\``,
  openDashboard: 'run `capabilities hub dashboard` in a terminal',
  apiServer: 'with `capabilities hub add --server <url>`',
  otherNamespace: 'with `capabilities hub add --namespace <name>`',
  listProfiles: 'List them with `capabilities hub profiles list`.',
  listSkills: 'List them with `capabilities hub skills list`.',
};
