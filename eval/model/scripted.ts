/**
 * The scripted model: a task's best path (task.ts, Script) played as a model. The script runs as a
 * coroutine: each `use(...)` becomes one assistant turn of tool_use blocks, and resolves with the
 * tool results of the next request; the string the script returns becomes the final turn's text.
 * Usage is the tokenizer's (accounting.ts): a scripted run measures the path, not a model.
 */
import type { Script, ToolReply, ToolUse } from '../task.ts';
import { offlineUsage } from './accounting.ts';
import type { AssistantBlock, ModelAdapter, ModelRequest, ModelTurn } from './messages.ts';

type Move =
  | { kind: 'use'; calls: ToolUse[] }
  | { kind: 'done'; text: string }
  | { kind: 'failed'; error: unknown };

/** What the runner lends the scripted model: each tool_use's reply, by id, with its structured part. */
export type Replies = ReadonlyMap<string, ToolReply>;

export class ScriptedAdapter implements ModelAdapter {
  readonly model = 'scripted';
  private readonly moves: Move[] = [];
  private wake: (() => void) | undefined;
  private deliver: ((replies: ToolReply[]) => void) | undefined;
  private issued: string[] = [];
  private started = false;
  private ids = 0;

  private readonly script: Script;
  /** The arm's name for a tool the script names (an address, or search/describe/execute). */
  private readonly nameFor: (scriptName: string) => string;
  private readonly replies: () => Replies;

  constructor(script: Script, nameFor: (scriptName: string) => string, replies: () => Replies) {
    this.script = script;
    this.nameFor = nameFor;
    this.replies = replies;
  }

  async turn(request: ModelRequest): Promise<ModelTurn> {
    if (!this.started) this.start();
    else this.answerPending();
    const move = await this.nextMove();
    let content: AssistantBlock[];
    if (move.kind === 'failed') throw move.error;
    if (move.kind === 'done') content = [{ type: 'text', text: move.text }];
    else {
      content = move.calls.map((call) => ({
        type: 'tool_use',
        id: `toolu_${String(++this.ids).padStart(4, '0')}`,
        name: this.nameFor(call.name),
        input: call.input,
      }));
      this.issued = content.map((block) => (block.type === 'tool_use' ? block.id : ''));
    }
    return {
      content,
      stopReason: move.kind === 'done' ? 'end_turn' : 'tool_use',
      usage: offlineUsage(request, content),
    };
  }

  private start(): void {
    this.started = true;
    const model = {
      use: (...calls: ToolUse[]) =>
        new Promise<ToolReply[]>((resolve) => {
          this.deliver = resolve;
          this.push({ kind: 'use', calls });
        }),
    };
    this.script(model).then(
      (text) => this.push({ kind: 'done', text }),
      (error: unknown) => this.push({ kind: 'failed', error }),
    );
  }

  /** Hands the last turn's tool results to the script waiting in `use`. */
  private answerPending(): void {
    const deliver = this.deliver;
    if (!deliver) throw new Error('the scripted model was asked for a turn after its script finished');
    this.deliver = undefined;
    const replies = this.replies();
    deliver(
      this.issued.map((id) => {
        const reply = replies.get(id);
        if (!reply) throw new Error(`no tool result for ${id}`);
        return reply;
      }),
    );
  }

  private push(move: Move): void {
    this.moves.push(move);
    this.wake?.();
  }

  private async nextMove(): Promise<Move> {
    while (this.moves.length === 0) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = undefined;
    return this.moves.shift() as Move;
  }
}
