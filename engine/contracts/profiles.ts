/**
 * A profile (spec: Concepts, Profile): a named, curated view of a hub, served at its own endpoint.
 * It says which tools and skills are visible and whether the tools are served in code mode (the
 * three tools search, describe and execute) or in direct mode (each visible tool as its own MCP
 * tool). A profile only curates: it grants nothing and carries no policy, so every call it lets
 * through still passes the hub's policy, approvals and journal.
 *
 * The model, deliberately small:
 * - `namespaces` absent: every namespace, including ones added later; present: only these.
 * - `tools` absent: every tool of the visible namespaces; present: only these addresses (each
 *   must be in a visible namespace). A tool is visible when both say so.
 * - `skills` absent: every skill; present: only these (`[]`: none).
 * The `default` profile is implicit (everything visible, code mode) until it is edited; it can be
 * edited but never removed.
 *
 * The hub's records, as zod 4 schemas: one definition per record.
 */
import { z } from 'zod';
import { Namespace, Timestamp, ToolAddress } from './names.ts';
import { SkillName } from './skills.ts';

/** The profile every hub has, served at the plain endpoint. */
export const DEFAULT_PROFILE = 'default';

/** A profile's name: lowercase letters, digits and single hyphens, at most 40 (it is a URL path part). */
export const ProfileName = z
  .string()
  .regex(
    /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
    'a profile name is lowercase letters and digits, words joined by single hyphens',
  )
  .max(40);
export type ProfileName = z.infer<typeof ProfileName>;

/** `code`: search, describe and execute; `direct`: each visible tool as its own MCP tool. */
export const ProfileMode = z.enum(['code', 'direct']);
export type ProfileMode = z.infer<typeof ProfileMode>;

export const Profile = z.object({
  name: ProfileName,
  mode: ProfileMode,
  /** The visible namespaces; absent: all of them. */
  namespaces: z.array(Namespace).optional(),
  /** The visible tools by address; absent: every tool of the visible namespaces. */
  tools: z.array(ToolAddress).optional(),
  /** The visible skills by name; absent: all of them. */
  skills: z.array(SkillName).optional(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Profile = z.infer<typeof Profile>;

/** The `default` profile as it is until someone edits it: everything, in code mode. */
export const IMPLICIT_DEFAULT: Profile = {
  name: DEFAULT_PROFILE,
  mode: 'code',
  createdAt: 0,
  updatedAt: 0,
};

/**
 * The view a person's own runs at their terminal have (`hub exec`, `hub call`): every tool, in
 * code mode, whatever `default` shows (profiles curate what agents' endpoints see). It is no
 * profile's name (no ProfileName has parentheses), so it is never listed, edited or removed.
 */
export const FULL_VIEW = '(cli)';
