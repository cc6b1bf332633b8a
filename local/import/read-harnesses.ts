/**
 * Reading every harness (or those named with `--from`): one report each, in a fixed order, and
 * the number of distinct skills across them all (one folder read by several harnesses counts once).
 * Reading never writes and never throws: a broken or unreadable file is an error in its report.
 */
import { HARNESSES, type HarnessId, type HarnessReport } from './found.ts';
import type { HarnessFiles } from './harness-files.ts';
import { readAntigravity } from './harnesses/antigravity.ts';
import { readClaudeCode } from './harnesses/claude-code.ts';
import { readClaudeDesktop } from './harnesses/claude-desktop.ts';
import { readCodex } from './harnesses/codex.ts';
import { readCursor } from './harnesses/cursor.ts';
import { readGemini } from './harnesses/gemini.ts';
import { readHermes } from './harnesses/hermes.ts';
import { readPi } from './harnesses/pi.ts';
import { readVscode } from './harnesses/vscode.ts';
import { readWindsurf } from './harnesses/windsurf.ts';

const READERS: Readonly<Record<HarnessId, (files: HarnessFiles) => HarnessReport>> = {
  'claude-code': readClaudeCode,
  'claude-desktop': readClaudeDesktop,
  codex: readCodex,
  cursor: readCursor,
  gemini: readGemini,
  vscode: readVscode,
  windsurf: readWindsurf,
  antigravity: readAntigravity,
  hermes: readHermes,
  pi: readPi,
};

export interface HarnessScan {
  harnesses: HarnessReport[];
  /** Skill folders across every harness read, each counted once by real path. */
  distinctSkills: number;
}

export function isHarnessId(name: string): name is HarnessId {
  return (HARNESSES as readonly string[]).includes(name);
}

export function readHarnesses(files: HarnessFiles, from: readonly HarnessId[] = HARNESSES): HarnessScan {
  const harnesses = HARNESSES.filter((id) => from.includes(id)).map((id) => READERS[id](files));
  const distinct = new Set(harnesses.flatMap((h) => h.skillPaths));
  return { harnesses, distinctSkills: distinct.size };
}
