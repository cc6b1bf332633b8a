/**
 * An eval task: a request as a person types it, the world it starts from, a checker on the world it
 * ends in, and a scripted best path in each arm (what a competent model would send, turn by turn).
 *
 * Arms: `code` is the hub's three tools (search, describe, execute); `direct` is every tool of the
 * same sources as its own tool, the way a harness loads servers today (the hub's direct-mode
 * profile runs the same script). A script names direct tools by address (`linear.linear_search_issues`);
 * each arm maps addresses to its own tool names.
 */
import type { Json } from './fixtures/service.ts';
import type { CallRecord } from './fixtures/state-files.ts';

/** What a task exercises (the list): each task has at least one. */
export type Trait =
  | 'J2' // the spec's journey J2: summarize open bugs, post the top 3, one approval
  | 'loop' // the same call over many items
  | 'join' // data from two sources combined
  | 'filter' // a large list narrowed to a few
  | 'approval' // a write the person approves
  | 'denial' // a write the person denies, which the model must handle
  | 'single' // one call does it: direct's best case
  | 'outcome'; // asked as a person asks (the outcome, not the tools): code mode searches with those words

/** The world a checker reads: each service's state file and the calls that reached it. */
export interface WorldView {
  state<S extends Json>(namespace: string): S;
  calls(namespace: string): CallRecord[];
}

/** A checker's verdict: `why` says what was wrong (or what was right), for the report. */
export interface Verdict {
  ok: boolean;
  why: string;
}

/** One tool call in a model's turn. Code arm: `search`, `describe`, `execute`; direct: an address. */
export interface ToolUse {
  name: string;
  input: Record<string, unknown>;
}

/** A tool's answer as the model reads it. */
export interface ToolReply {
  text: string;
  isError: boolean;
  /** `text` parsed as JSON (throws when it is not JSON). */
  json<T = unknown>(): T;
  /** The answer's structuredContent, when it has one (`execute`'s envelope); the model reads `text`. */
  structured?: unknown;
}

/** The scripted model's one move: a turn of tool calls (parallel when more than one). */
export interface ScriptedModel {
  use(...calls: ToolUse[]): Promise<ToolReply[]>;
}

/** A best path: turns of tool calls, then the final answer to the person. */
export type Script = (model: ScriptedModel) => Promise<string>;

/** What the person does when asked (code arm: the hub's prompt; direct arm: the harness's). */
export interface Person {
  /** Addresses the person denies; every other call they are asked about, they approve. */
  deny?: readonly string[];
}

export interface EvalTask {
  /** Kebab-case, unique: names the transcript files and the rows of the report. */
  id: string;
  /** The request, as the person types it to the agent. */
  prompt: string;
  /** More than one tool call is needed (the 40% target applies to these). */
  multiStep: boolean;
  traits: readonly Trait[];
  /** Namespaces of the services the task reads or changes. */
  sources: readonly string[];
  person?: Person;
  /** Changes the default world for this task (states by namespace, mutable). */
  seed?(states: Record<string, Json>): void;
  /** Whether the world ended as the request asked. Must fail when nothing was done. */
  check(world: WorldView): Verdict;
  scripts: { code: Script; direct: Script };
}
