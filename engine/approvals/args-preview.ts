/**
 * The arguments a person is shown when a call asks (spec: Security and approvals, "the
 * arguments (redacted, capped at 4 KB)"). A decision is bound to the digest of the whole
 * arguments, so the preview must not hide what matters: cutting the text's tail would hide
 * whatever comes last, and the code chooses the order (`{ pad: "<4 KB>", to: "attacker" }`).
 *
 * So fields stay in sight as far as they can: the longest strings are shortened in their middle
 * first, each saying how many characters are not shown, until the preview fits; only when even
 * that is not enough are long arrays and objects shortened (saying how many members are not
 * shown), and, last of all, the text's tail (saying how much). What is shortened is always said,
 * and the whole arguments are kept with the pending input for a person who wants to read them
 * (`hub approve --full`).
 *
 * Pure: no store, no clock.
 */

/** The most characters a preview takes (the store allows 4,096). */
export const PREVIEW_CHARS = 4000;

/** The first line of a preview that shortened something. */
export const SHORTENED_NOTE = '(long values are shortened; the decision covers them whole)';

/** Each step shortens strings to `chars` and containers to `members`, until one fits. */
const STEPS: readonly { chars: number; members: number }[] = [
  { chars: Number.POSITIVE_INFINITY, members: Number.POSITIVE_INFINITY },
  { chars: 1000, members: Number.POSITIVE_INFINITY },
  { chars: 300, members: Number.POSITIVE_INFINITY },
  { chars: 120, members: Number.POSITIVE_INFINITY },
  { chars: 48, members: 64 },
  { chars: 24, members: 16 },
  { chars: 16, members: 6 },
];

const count = (n: number) => n.toLocaleString('en-US');

/** `text` shortened in its middle to about `chars`, saying how much is not shown. */
export function shorten(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const keep = Math.max(4, Math.floor(chars / 2));
  const hidden = text.length - 2 * keep;
  return `${text.slice(0, keep)}… (${count(hidden)} characters not shown) …${text.slice(-keep)}`;
}

function render(args: unknown, step: { chars: number; members: number }): string {
  let shortened = false;
  const text = JSON.stringify(
    args,
    (_key, value: unknown) => {
      if (typeof value === 'string' && value.length > step.chars) {
        shortened = true;
        return shorten(value, step.chars);
      }
      if (Array.isArray(value) && value.length > step.members) {
        shortened = true;
        return [
          ...value.slice(0, step.members),
          `… (${count(value.length - step.members)} more items not shown)`,
        ];
      }
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        const keys = Object.keys(value);
        if (keys.length > step.members) {
          shortened = true;
          const kept: Record<string, unknown> = {};
          for (const key of keys.slice(0, step.members)) kept[key] = (value as Record<string, unknown>)[key];
          kept['…'] = `${count(keys.length - step.members)} more fields not shown`;
          return kept;
        }
      }
      return value;
    },
    2,
  );
  const body = text ?? 'null';
  return shortened ? `${SHORTENED_NOTE}\n${body}` : body;
}

/** The preview of `args`, at most PREVIEW_CHARS characters, every field in sight when possible. */
export function argsPreview(args: unknown): string {
  let last = '';
  try {
    for (const step of STEPS) {
      last = render(args, step);
      if (last.length <= PREVIEW_CHARS) return last;
    }
  } catch {
    return '(the arguments are nested too deeply to show; the decision covers them whole)';
  }
  const hidden = last.length - (PREVIEW_CHARS - 100);
  return `${last.slice(0, PREVIEW_CHARS - 100)}\n… (cut: ${count(hidden)} more characters of the arguments are not shown)`;
}
