/**
 * What the importer found in one harness's files: the MCP servers it lists (`FoundServer`,
 * values exactly as written there, `${VAR}` references and plaintext tokens included), the files
 * it read, the errors it met and how many skills it reads. Readers produce these; the plan
 * (plan.ts) is the only thing that decides what is secret, and nothing here is printed as is.
 */

/** The harnesses the importer reads, in the order it reports them. */
export const HARNESSES = [
  'claude-code',
  'claude-desktop',
  'codex',
  'cursor',
  'gemini',
  'vscode',
  'windsurf',
  'antigravity',
  'hermes',
  'pi',
] as const;
export type HarnessId = (typeof HARNESSES)[number];

/**
 * How a harness writes a reference to the person's environment inside a value (research §0):
 * `braces` `${VAR}`, `braces-default` `${VAR}` and `${VAR:-default}` (Claude Code), `env-colon`
 * `${env:VAR}` (Cursor, Windsurf, VS Code), `dollar` `$VAR` and `${VAR}` (Gemini), `hermes`
 * `${VAR}` and `${env:VAR}`, `none` (Claude Desktop, Antigravity: values are literal).
 */
export type Interpolation = 'braces' | 'braces-default' | 'env-colon' | 'dollar' | 'hermes' | 'none';

/** Where a server's entry applies: everywhere (`user`), one project's private entry (`local`), or a project's shared file. */
export type Scope = 'user' | 'local' | 'project';

export type FoundTransport =
  | {
      kind: 'stdio';
      command: string;
      args: readonly string[];
      env: Readonly<Record<string, string>>;
      cwd?: string | undefined;
    }
  | { kind: 'http' | 'sse'; url: string; headers: Readonly<Record<string, string>> };

export interface FoundServer {
  harness: HarnessId;
  /** The file the entry is in, as an absolute path. */
  file: string;
  scope: Scope;
  /** For `local` and `project` entries, the project directory they belong to. */
  project?: string | undefined;
  name: string;
  transport: FoundTransport;
  disabled: boolean;
  /** How references inside this entry's values are written (see `Interpolation`). */
  interpolation: Interpolation;
}

export interface ReadError {
  file: string;
  line?: number | undefined;
  message: string;
  /**
   * The server entry that was skipped, when the file was read and only that entry could not be
   * taken; absent when the file itself could not be read (which fails the import).
   */
  entry?: string;
}

/** True when a harness file could not be read at all (not only one of its entries). */
export function unreadable(report: HarnessReport): boolean {
  return report.errors.some((error) => error.entry === undefined);
}

export interface HarnessReport {
  harness: HarnessId;
  /** Files that existed and were read (parsed or not). */
  filesRead: string[];
  servers: FoundServer[];
  errors: ReadError[];
  /** Skill folders (`SKILL.md`) this harness reads, each counted once by real path. */
  skills: number;
  /** The real paths of those skill folders, to count skills once across harnesses. */
  skillPaths: string[];
}
