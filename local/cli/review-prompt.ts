/**
 * The review screen of `add` and `review`: every tool in its class with the proposed policy;
 * one keystroke accepts the proposal, or the person adjusts tool by tool. `--yes` accepts
 * without asking; with `--no-input` (or no terminal) and no `--yes`, nothing is decided.
 * Names and messages are shown inert, one line each (engine/inert.ts), prompts included.
 */
import { confirm, expand, select } from '@inquirer/prompts';
import type { PolicyEffect } from '../../engine/contracts/policy.ts';
import { HubError } from '../../engine/errors.ts';
import { inertLine } from '../../engine/inert.ts';
import type { ReviewItem, ToolClass } from '../../engine/sources/review.ts';
import type { Output } from './output.ts';

const HEADINGS: Record<ToolClass, string> = {
  'read-only': 'Read-only: allow (the tool declares itself read-only)',
  writes: 'Writes: ask (it changes something, or declares nothing about itself)',
  destructive: 'Destructive: ask, flagged (it says it deletes or overwrites)',
};

/** The review as text, grouped by class. */
export function renderReview(items: readonly ReviewItem[]): string {
  const lines: string[] = [];
  for (const toolClass of ['read-only', 'writes', 'destructive'] as const) {
    const group = items.filter((item) => item.class === toolClass);
    if (group.length === 0) continue;
    lines.push(`${HEADINGS[toolClass]}:`);
    for (const item of group)
      lines.push(
        `  ${toolClass === 'destructive' ? '! ' : '  '}${inertLine(item.address)}  → ${item.proposed}`,
      );
  }
  return lines.join('\n');
}

export interface Interaction {
  yes: boolean;
  input: boolean;
}

/** True when prompting a person is possible and allowed. */
export function canPrompt(interaction: Interaction): boolean {
  return interaction.input && process.stdin.isTTY === true && process.stdout.isTTY === true;
}

/** Asks a yes/no question, or takes --yes, or refuses with what to pass. */
export async function confirmOrYes(
  interaction: Interaction,
  message: string,
  refusal: string,
): Promise<boolean> {
  if (interaction.yes) return true;
  if (!canPrompt(interaction)) throw new HubError('invalid_input', refusal);
  return confirm({ message: inertLine(message), default: false });
}

/** The effect per tool the person settled on, or undefined when they cancelled. */
export async function decideReview(
  items: readonly ReviewItem[],
  interaction: Interaction,
  output: Output,
): Promise<Map<string, PolicyEffect> | undefined> {
  const proposal = new Map(items.map((item) => [item.address, item.proposed]));
  if (items.length === 0 || interaction.yes) return proposal;
  if (!canPrompt(interaction)) {
    throw new HubError(
      'invalid_input',
      'the review needs a person: run it in a terminal, or pass --yes to accept the proposal as shown',
    );
  }
  output.note(renderReview(items));
  const answer = await expand({
    message: 'Accept this proposal?',
    default: 'y',
    choices: [
      { key: 'y', name: 'Accept as shown (pins each tool’s contract)', value: 'accept' },
      { key: 'a', name: 'Adjust tool by tool', value: 'adjust' },
      { key: 'n', name: 'Cancel: change nothing', value: 'cancel' },
    ],
  });
  if (answer === 'cancel') return undefined;
  if (answer === 'accept') return proposal;
  const chosen = new Map<string, PolicyEffect>();
  for (const item of items) {
    chosen.set(
      item.address,
      await select<PolicyEffect>({
        message: `${inertLine(item.address)} (${item.class})`,
        default: item.proposed,
        choices: [
          { name: 'allow: runs without asking', value: 'allow' },
          { name: 'ask: a person approves each call', value: 'ask' },
          { name: 'deny: never runs', value: 'deny' },
        ],
      }),
    );
  }
  return chosen;
}

/** How many tools a review left at each effect. */
export function countEffects(effects: ReadonlyMap<string, string>): {
  allow: number;
  ask: number;
  deny: number;
} {
  const counts = { allow: 0, ask: 0, deny: 0 };
  for (const effect of effects.values()) counts[effect as keyof typeof counts]++;
  return counts;
}
