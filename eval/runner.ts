/**
 * One task in one arm: the world reset to the task's seed, the person set, then the loop every
 * agent harness runs: the model reads the request (system, tools, conversation), its tool calls
 * are made through the arm and their answers appended, until it answers without a call or runs
 * out of turns. The checker then reads the world. Figures: the checker's verdict, tokens per turn
 * and in total, turns, tool calls, wall time; and the transcript, for replay.
 */
import type { Arm, ArmName } from './arms/arm.ts';
import type { Message, ModelAdapter, ToolResultBlock, Usage } from './model/messages.ts';
import type { Replies } from './model/scripted.ts';
import type { Transcript, TranscriptTurn } from './model/transcript.ts';
import type { EvalTask, ToolReply } from './task.ts';
import { resetWorld, worldView } from './world.ts';

/** A model that has not answered after this many turns has failed the task. */
export const MAX_TURNS = 24;

export interface ArmRun {
  success: boolean;
  /** The checker's words, or what stopped the run. */
  why: string;
  inputTokens: number;
  outputTokens: number;
  /** Per turn, in order. */
  perTurn: Usage[];
  turns: number;
  calls: number;
  ms: number;
  transcript: Transcript;
}

/** Makes the model for one run; `replies` lends a scripted model each call's whole reply. */
export type AdapterFor = (task: EvalTask, arm: Arm, replies: () => Replies) => ModelAdapter;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function runTask(
  task: EvalTask,
  arm: Arm,
  adapterFor: AdapterFor,
  stateDir: string,
): Promise<ArmRun> {
  resetWorld(stateDir, task);
  arm.begin(task);
  const replies = new Map<string, ToolReply>();
  const adapter = adapterFor(task, arm, () => replies);
  const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: task.prompt }] }];
  const turns: TranscriptTurn[] = [];
  let calls = 0;
  let stopped: string | undefined;
  const started = performance.now();
  try {
    for (;;) {
      if (turns.length === MAX_TURNS) {
        stopped = `no answer after ${MAX_TURNS} turns`;
        break;
      }
      const turn = await adapter.turn({ system: arm.system, tools: arm.tools, messages: [...messages] });
      messages.push({ role: 'assistant', content: turn.content });
      const results: ToolResultBlock[] = [];
      for (const block of turn.content) {
        if (block.type !== 'tool_use') continue;
        calls++;
        const reply = await arm.call(block.name, block.input);
        replies.set(block.id, reply);
        results.push({
          type: 'tool_result',
          tool_use_id: block.id,
          content: reply.text,
          ...(reply.isError ? { is_error: true } : {}),
        });
      }
      turns.push({ content: turn.content, stopReason: turn.stopReason, usage: turn.usage, results });
      if (results.length === 0) break;
      messages.push({ role: 'user', content: results });
    }
  } catch (error) {
    stopped = `the model stopped: ${message(error)}`;
  } finally {
    adapter.close?.();
  }
  const ms = performance.now() - started;
  const verdict = stopped ? { ok: false, why: stopped } : task.check(worldView(stateDir));
  const perTurn = turns.map((turn) => turn.usage);
  return {
    success: verdict.ok,
    why: verdict.why,
    inputTokens: perTurn.reduce((sum, usage) => sum + usage.inputTokens, 0),
    outputTokens: perTurn.reduce((sum, usage) => sum + usage.outputTokens, 0),
    perTurn,
    turns: turns.length,
    calls,
    ms,
    transcript: {
      task: task.id,
      arm: arm.name as ArmName,
      model: adapter.model,
      recorded: new Date().toISOString(),
      prompt: task.prompt,
      turns,
    },
  };
}
