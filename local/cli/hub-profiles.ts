/**
 * `capabilities hub profiles create | list | show | edit | remove`: the hub's profiles, curated
 * views each served at its own endpoint (`hub serve --stdio --profile <name>`, `/mcp/<name>` on
 * `serve --http`, `hub connect --profile <name>`). A profile says which namespaces, tools and
 * skills are visible and whether its tools are served in code mode (search, describe, execute) or
 * direct mode (each tool its own MCP tool). It only curates: it grants nothing and carries no
 * policy. The engine checks every name against the hub before anything is stored
 * (engine/profiles/profiles.ts); `default` always exists, can be edited, never removed.
 *
 * Lists are comma-separated (`--tools github.create_issue,github.get_issue`); on `edit`, `all`
 * shows everything again and `none` nothing (for skills).
 */
import { type Command, InvalidArgumentError } from 'commander';
import type { Profile, ProfileMode } from '../../engine/contracts/profiles.ts';
import type { ProfileChanges, ProfileVisible } from '../../engine/profiles/profiles.ts';
import { hubAction } from './hub-action.ts';

interface ProfileFlags {
  mode?: ProfileMode;
  namespaces?: string[] | null;
  tools?: string[] | null;
  skills?: string[] | null;
}

function parseMode(value: string): ProfileMode {
  if (value !== 'code' && value !== 'direct') {
    throw new InvalidArgumentError(
      'a mode is "code" (search, describe, execute) or "direct" (each tool its own)',
    );
  }
  return value;
}

/** A comma-separated list; `all` is null (everything), `none` the empty list. */
function parseList(value: string): string[] | null {
  const trimmed = value.trim();
  if (trimmed === 'all') return null;
  if (trimmed === 'none' || trimmed === '') return [];
  return trimmed
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

const changesOf = (flags: ProfileFlags): ProfileChanges => ({
  mode: flags.mode,
  namespaces: flags.namespaces,
  tools: flags.tools,
  skills: flags.skills,
});

function withListFlags(command: Command, verb: string): Command {
  return command
    .option(
      '--mode <mode>',
      `code (search, describe, execute) or direct (each visible tool its own MCP tool)`,
      parseMode,
    )
    .option('--namespaces <list>', `the namespaces ${verb}, comma-separated, or all`, parseList)
    .option(
      '--tools <list>',
      `the tool addresses ${verb} (namespace.tool), comma-separated, or all`,
      parseList,
    )
    .option('--skills <list>', `the skills ${verb}, comma-separated, all, or none`, parseList);
}

const listed = (names: readonly string[] | undefined, all: string) =>
  names === undefined ? all : names.length === 0 ? 'none' : names.join(', ');

/** One profile's lines: its mode and curation. */
function profileLines(profile: Profile): string[] {
  return [
    `${profile.name}  ${profile.mode} mode`,
    `  namespaces: ${listed(profile.namespaces, 'all')}`,
    `  tools: ${listed(profile.tools, 'all of the visible namespaces')}`,
    `  skills: ${listed(profile.skills, 'all')}`,
  ];
}

/** `show`'s text: the profile, then what it shows now. */
function visibleText({ profile, tools, skills, missing }: ProfileVisible): string {
  const lines = profileLines(profile);
  lines.push(
    `Visible now: ${tools.length} ${tools.length === 1 ? 'tool' : 'tools'}, ${skills.length} ${skills.length === 1 ? 'skill' : 'skills'}`,
  );
  for (const tool of tools) lines.push(`  ${tool}`);
  for (const skill of skills) lines.push(`  skill:${skill}`);
  if (missing.length > 0)
    lines.push(`Listed but no longer in the hub (they match nothing): ${missing.join(', ')}`);
  lines.push(
    profile.name === 'default'
      ? 'Served by `capabilities hub serve --stdio`, and at /mcp on `serve --http`.'
      : `Served by \`capabilities hub serve --stdio --profile ${profile.name}\`, and at /mcp/${profile.name} on \`serve --http\`.`,
  );
  return lines.join('\n');
}

export function registerProfiles(hub: Command): void {
  const profiles = hub
    .command('profiles')
    .description('Manage profiles: curated views of the hub, each served at its own endpoint');

  withListFlags(
    profiles
      .command('create')
      .description('Create a profile (everything visible and code mode, unless the options say otherwise)')
      .argument('<name>', 'lowercase letters and digits, words joined by hyphens'),
    'it shows',
  ).action(
    hubAction((out, name: string, flags: ProfileFlags) => async ({ profiles: hubProfiles }) => {
      const profile = hubProfiles.create(name, changesOf(flags));
      out.result(
        { created: true, profile },
        [
          ...profileLines(profile),
          `Created. Serve it with \`capabilities hub serve --stdio --profile ${name}\`.`,
        ].join('\n'),
      );
    }),
  );

  profiles
    .command('list')
    .description('List the profiles, default among them')
    .action(
      hubAction((out) => async ({ profiles: hubProfiles }) => {
        const list = hubProfiles.list();
        out.result({ profiles: list }, list.flatMap(profileLines).join('\n'));
      }),
    );

  profiles
    .command('show')
    .description('Show a profile and the tools and skills it makes visible now')
    .argument('<name>')
    .action(
      hubAction((out, name: string) => async ({ profiles: hubProfiles }) => {
        const visible = hubProfiles.visible(name);
        out.result(visible, visibleText(visible));
      }),
    );

  withListFlags(
    profiles
      .command('edit')
      .description(
        "Change a profile's mode or what it shows (default included); options left out stay as they are",
      )
      .argument('<name>'),
    'it shows',
  ).action(
    hubAction((out, name: string, flags: ProfileFlags) => async ({ profiles: hubProfiles }) => {
      const profile = hubProfiles.edit(name, changesOf(flags));
      out.result({ edited: true, profile }, [...profileLines(profile), 'Saved.'].join('\n'));
    }),
  );

  profiles
    .command('remove')
    .description('Remove a profile (never default)')
    .argument('<name>')
    .action(
      hubAction((out, name: string) => async ({ profiles: hubProfiles }) => {
        hubProfiles.remove(name);
        out.result({ removed: true, name }, `Removed profile "${name}".`);
      }),
    );
}
