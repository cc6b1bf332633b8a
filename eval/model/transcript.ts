/**
 * A run's transcript, as written after every run (live or scripted) and played by the replay
 * model: each turn's blocks, stop reason and usage, and the tool results the model then read.
 * Stored at `<dir>/<model>/<arm>/<task>.json`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ArmName } from '../arms/arm.ts';
import type { AssistantBlock, ModelTurn, ToolResultBlock, Usage } from './messages.ts';

export interface TranscriptTurn {
  content: AssistantBlock[];
  stopReason: ModelTurn['stopReason'];
  usage: Usage;
  /** What the tools answered to this turn's calls (none after the last turn). */
  results: ToolResultBlock[];
}

export interface Transcript {
  task: string;
  arm: ArmName;
  model: string;
  /** ISO date of the run. */
  recorded: string;
  prompt: string;
  turns: TranscriptTurn[];
}

const safe = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_');

export const transcriptPath = (dir: string, model: string, arm: ArmName, task: string) =>
  join(dir, safe(model), arm, `${safe(task)}.json`);

export function writeTranscript(dir: string, transcript: Transcript): string {
  const path = transcriptPath(dir, transcript.model, transcript.arm, transcript.task);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `${JSON.stringify(transcript, null, 1)}\n`);
  return path;
}
