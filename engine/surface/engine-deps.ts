/**
 * SurfaceDeps from the engine's own parts: `Lookup` answers search and describe, `Runs` runs
 * and resumes code. Every host that holds an engine (the local hub, the Durable Object) builds
 * its surface with this, so the tools mean the same everywhere.
 *
 * One rule lives here rather than in Runs: `execute({ resume })` on a run that has already ended
 * answers that run's final envelope. A person who approves where the host lets them (the CLI's
 * `approve`, a page) also resumes the run there, so by the time the model resumes, as it was told to, the run may be
 * complete; the model then gets the result rather than an error, and nothing runs again. And a
 * resume of a run that another attempt is running right now (the person's `approve`, another
 * agent session) answers status `running` with `retryAfterMs`: never `failed`, which a model
 * could take as a reason to run its writes again.
 */

import type { ExecuteEnvelope } from '../contracts/envelope.ts';
import { isHubError } from '../errors.ts';
import { callCode } from '../one-call.ts';
import { NO_SCRUBBING, type SecretScrubbing } from '../secrets/hub-secrets.ts';
import { frontMatterOf } from '../skills/skill-file.ts';
import type { HostWording } from '../wording.ts';
import type { SurfaceDeps } from './create-mcp-server.ts';
import type { SurfaceDirect } from './direct-tools.ts';
import type { SearchArgs } from './inputs.ts';
import type { SurfaceSkills } from './skill-resources.ts';

/** The part of `Lookup` the surface uses. */
export interface SurfaceLookup {
  search(input: SearchArgs): string;
  describe(targets: readonly string[]): string;
  /** The skills the profile shows, with SKILL.md's text and every file (absent: no skills served). */
  skills?(): readonly SkillRecord[];
  /** One file of a skill the profile shows; undefined for any other. */
  skillFile?(name: string, path: string): Uint8Array | undefined;
  /** How the profile serves its tools (absent: code mode). */
  mode?(): 'code' | 'direct';
  /** The tools the profile shows, for direct mode. */
  tools?(): readonly DirectToolRecord[];
  /** Changes whenever the profile's visible tools may have. */
  stamp?(): string;
}

/** A stored skill as the surface reads it (a Skill is one). */
export interface SkillRecord {
  name: string;
  description: string;
  /** The whole SKILL.md. */
  text: string;
  files: readonly { path: string; bytes: number; sha256: string }[];
}

/** A stored tool as direct mode reads it (a ManifestTool is one). */
export interface DirectToolRecord {
  address: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown> | undefined;
  annotations?: object | undefined;
}

/** The part of `Runs` the surface uses. */
export interface SurfaceRuns {
  execute(code: string, profile?: string): Promise<ExecuteEnvelope>;
  /** Resumes a run; with `profile`, only a run of that profile (another is not found). */
  resume(runId: string, profile?: string): Promise<ExecuteEnvelope>;
  envelope(runId: string): ExecuteEnvelope;
  /** The value the run returned, whole (a large result of its own read back); absent: the envelope's. */
  result?(runId: string): unknown;
}

/**
 * The part of the `Engine` the surface uses (an Engine is one, as it is; the surface names the
 * parts rather than the Engine, so it reaches neither the desk nor the person-input module).
 */
export interface EngineSurface {
  lookup: SurfaceLookup;
  /** Search, describe and the tools for one profile (absent: `lookup` serves every profile). */
  lookupFor?(profile: string): SurfaceLookup;
  /** The runs, started on first use (the sandbox is not needed to search). */
  runs(): Promise<SurfaceRuns>;
  /**
   * Every secret the hub holds: `search` and `describe` answers are scrubbed on the way out
   * (manifests are stored scrubbed too; this also covers a secret entered after they were).
   */
  secrets?: SecretScrubbing;
  /** How a person acts on this host, for the lines the model reads. */
  wording: HostWording;
}

/** What the host adds to its engine's surface. */
export interface SurfaceHost {
  /** The hub's version, reported as the server's. */
  version: string;
  /** The profile the surface serves (absent: `default`); the host checked that it exists. */
  profile?: string;
  /**
   * Calls `changed` whenever `stamp()` may have moved, until stopped: the host's way to notice a
   * change made by another process (the local stdio server polls the shared store). Absent: a
   * direct-mode surface never says its list changed (an HTTP request reads the list anew).
   */
  watch?(stamp: () => string, changed: () => void): () => void;
  /** The host's client prompt (engine/runs/client-prompt.ts), for clients that declared form elicitation. */
  prompt?: SurfaceDeps['prompt'];
  /** The host's approval page (local/pages/), for clients it cannot prompt. */
  pages?: SurfaceDeps['pages'];
  log?: SurfaceDeps['log'];
}

/** Statuses a resume that Runs refused answers with: how the run ended, or that it is running. */
const ANSWERED: ReadonlySet<ExecuteEnvelope['status']> = new Set([
  'completed',
  'failed',
  'cancelled',
  'running',
]);

/** The surface's deps over an engine: the one assembly every host serves. */
export function engineSurfaceDeps(engine: EngineSurface, host: SurfaceHost): SurfaceDeps {
  const scrubbing = engine.secrets ?? NO_SCRUBBING;
  // Lookups read manifests, stored scrubbed: they use the scrubber as it is and refresh it in the
  // background, so a read-only search never waits on a keychain.
  const scrubbed = async (answer: () => string) => {
    scrubbing.refresh().catch(() => undefined);
    return scrubbing.scrubber.text(answer());
  };
  const profile = host.profile ?? 'default';
  const lookup = engine.lookupFor?.(profile) ?? engine.lookup;
  const direct = lookup.mode?.() === 'direct' ? directDeps(engine, lookup, profile, host) : undefined;
  return {
    version: host.version,
    wording: engine.wording,
    search: (input) => scrubbed(() => lookup.search(input)),
    describe: (targets) => scrubbed(() => lookup.describe(targets)),
    execute: async (code) => (await engine.runs()).execute(code, profile),
    resume: async (runId) => {
      const runs = await engine.runs();
      try {
        return await runs.resume(runId, profile);
      } catch (error) {
        // Runs refuses with a conflict to resume a run that ended, or that another attempt is
        // running: the model gets how it ended, or that it runs and when to ask again (never
        // "failed" for a run that is still going, which a model might run again).
        if (isHubError(error, 'conflict')) {
          const current = runs.envelope(runId);
          if (ANSWERED.has(current.status)) return current;
        }
        throw error;
      }
    },
    ...(lookup.skills && lookup.skillFile ? { skills: surfaceSkills(lookup, scrubbing) } : {}),
    ...(direct ? { direct } : {}),
    ...(host.prompt ? { prompt: host.prompt } : {}),
    ...(host.pages ? { pages: host.pages } : {}),
    ...(host.log ? { log: host.log } : {}),
  };
}

/**
 * Direct mode over the engine: the profile's tools as stored (manifests are stored scrubbed, and
 * the text is scrubbed again on the way out), each call a one-call run of the profile.
 */
function directDeps(
  engine: EngineSurface,
  lookup: SurfaceLookup,
  profile: string,
  host: SurfaceHost,
): SurfaceDirect {
  const scrubbing = engine.secrets ?? NO_SCRUBBING;
  const scrub = (value: string | undefined) =>
    value === undefined ? undefined : scrubbing.scrubber.text(value);
  return {
    tools: () =>
      (lookup.tools?.() ?? []).map((tool) => ({
        address: tool.address,
        title: scrub(tool.title),
        description: scrub(tool.description),
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
        annotations: tool.annotations ? { ...tool.annotations } : undefined,
      })),
    call: async (address, args) => (await engine.runs()).execute(callCode(address, args), profile),
    result: async (runId) => {
      const runs = await engine.runs();
      return runs.result ? runs.result(runId) : runs.envelope(runId).result;
    },
    ...(host.watch && lookup.stamp
      ? { watch: (changed: () => void) => host.watch?.(() => lookup.stamp?.() ?? '', changed) ?? (() => {}) }
      : {}),
  };
}

/**
 * The profile's skills for the surface (skill-resources.ts), their text scrubbed like every lookup
 * answer: the description, the front matter (read from the scrubbed SKILL.md) and every file that
 * is UTF-8 text; a file that is not is served as its bytes.
 */
function surfaceSkills(lookup: SurfaceLookup, scrubbing: SecretScrubbing): SurfaceSkills {
  const scrub = (text: string) => scrubbing.scrubber.text(text);
  return {
    list: () => {
      scrubbing.refresh().catch(() => undefined);
      return (lookup.skills?.() ?? []).map((skill) => ({
        name: skill.name,
        description: scrub(skill.description),
        frontmatter: frontMatterOf(scrub(skill.text)),
        files: skill.files,
      }));
    },
    file: (name, path) => {
      const data = lookup.skillFile?.(name, path);
      if (data === undefined) return undefined;
      try {
        return { text: scrub(UTF8.decode(data)) };
      } catch {
        return { bytes: data };
      }
    },
  };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
