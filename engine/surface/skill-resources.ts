/**
 * The hub's skills over MCP as the Skills extension (SEP-2640, `io.modelcontextprotocol/skills`)
 * says to serve them: every file of a skill is a resource `skill://<name>/<path>` (its SKILL.md at
 * `skill://<name>/SKILL.md`), read with resources/read; `skills/list` and `skills/get` answer each
 * skill's entry (the SKILL.md front matter as data, and every file with its size and SHA-256), and
 * resources/list names each SKILL.md, so a client that knows only resources finds them too. The
 * SDK's `SkillsExtension` does the protocol; this file is the hub's catalog behind it.
 *
 * Invariants: only a file the skill's manifest names is read (a URI is taken apart into the
 * skill's name and a path, each percent-decoded once, and the path must be one the manifest
 * lists: `..`, encoded or not, matches none); a profile's hidden skill answers exactly as one the
 * hub does not hold. The host scrubs what it hands here (engine-deps.ts): a text file that held a
 * secret of the hub's is served with the secret replaced, so its digest no longer matches the
 * manifest and a client that checks digests refuses it, which is the safe way round.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { type SkillSource, SkillsExtension } from '@modelcontextprotocol/server/ext/skills';

/** One skill as the surface serves it. */
export interface ServedSkill {
  name: string;
  description: string;
  /** The SKILL.md front matter as data (name and description among its keys). */
  frontmatter: Record<string, unknown>;
  /** Every file, SKILL.md included: its path in the skill's folder, size and SHA-256 (hex). */
  files: readonly { path: string; bytes: number; sha256: string }[];
}

/** A file's content: text (UTF-8) or bytes. */
export type ServedFile = { text: string } | { bytes: Uint8Array };

/** The skills a surface serves (its profile's), scrubbed by the host. */
export interface SurfaceSkills {
  list(): readonly ServedSkill[] | Promise<readonly ServedSkill[]>;
  /** One file of a skill the profile shows; undefined for any other (a hidden skill's too). */
  file(name: string, path: string): ServedFile | undefined | Promise<ServedFile | undefined>;
}

const SCHEME = 'skill://';
const SKILL_FILE = 'SKILL.md';

/** A file's resource URI: each part of its path percent-encoded. */
export const skillFileUri = (name: string, path: string): string =>
  `${SCHEME}${encodeURIComponent(name)}/${path.split('/').map(encodeURIComponent).join('/')}`;

/** A skill's entry URI: its SKILL.md's. */
export const skillUri = (name: string): string => skillFileUri(name, SKILL_FILE);

/** Serves `skills` on `server` as the Skills extension, with resources/list naming each SKILL.md. */
export function attachSkills(server: McpServer, skills: SurfaceSkills, log: (message: string) => void): void {
  new SkillsExtension({
    source: catalog(skills),
    onWarning: (warning) => log(`${warning.path}: ${warning.message}`),
  }).attach(server);
}

function catalog(skills: SurfaceSkills): SkillSource {
  const entry = (skill: ServedSkill) => ({
    uri: skillUri(skill.name),
    frontmatter: { ...skill.frontmatter, name: skill.name, description: skill.description },
    resources: skill.files.map((file) => ({
      uri: skillFileUri(skill.name, file.path),
      digest: `sha256:${file.sha256}`,
      size: file.bytes,
    })),
  });
  const find = async (name: string) => (await skills.list()).find((skill) => skill.name === name);
  return {
    list: async () => ({ skills: (await skills.list()).map(entry) }),
    get: async (uri) => {
      const parts = partsOf(uri);
      if (parts?.path !== SKILL_FILE) return undefined;
      const skill = await find(parts.name);
      return skill && entry(skill);
    },
    read: async (uri) => {
      const parts = partsOf(uri);
      if (!parts) return undefined;
      const skill = await find(parts.name);
      // Only a path the manifest lists: nothing else of the store, or of the host, can be named.
      if (!skill?.files.some((file) => file.path === parts.path)) return undefined;
      const content = await skills.file(parts.name, parts.path);
      if (!content) return undefined;
      return 'text' in content
        ? { text: content.text, mimeType: mimeOf(parts.path) }
        : { bytes: content.bytes, mimeType: 'application/octet-stream' };
    },
    listResources: async () =>
      (await skills.list()).map((skill) => ({
        uri: skillUri(skill.name),
        name: skill.name,
        description: skill.description,
        mimeType: 'text/markdown',
      })),
  };
}

/** `skill://<name>/<path>` taken apart, each part decoded once; undefined for any other shape. */
function partsOf(uri: string): { name: string; path: string } | undefined {
  if (!uri.startsWith(SCHEME)) return undefined;
  const [name, ...rest] = uri.slice(SCHEME.length).split('/');
  if (!name || rest.length === 0) return undefined;
  try {
    return { name: decodeURIComponent(name), path: rest.map(decodeURIComponent).join('/') };
  } catch {
    return undefined;
  }
}

/** A text file's media type by its name: Markdown for `.md`, else plain text. */
function mimeOf(path: string): string {
  return path.toLowerCase().endsWith('.md') ? 'text/markdown' : 'text/plain';
}
