/**
 * Reading a secret from the person: a masked prompt on a terminal, else all of standard input.
 * Never an argument, so a secret never lands in shell history or a process list. For `hub auth`
 * (a credential) and `hub add` / `hub auth --client-secret` (a pre-registered OAuth client's secret).
 */
import { HubError } from '../../engine/errors.ts';
import { inertLine } from '../../engine/inert.ts';
import type { Output } from './output.ts';

/** A masked prompt on a terminal; otherwise all of standard input, without its final newline. */
export async function readSecret(out: Output, message: string): Promise<string> {
  if (process.stdin.isTTY) {
    if (!out.options.input) {
      throw new HubError('invalid_input', 'with --no-input, pipe the secret on standard input instead');
    }
    const { password } = await import('@inquirer/prompts');
    return password({ message: inertLine(message), mask: '•' });
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}
