/**
 * References to the person's environment inside a harness value (`${GITHUB_TOKEN}`, `${env:X}`,
 * `$X`, `${X:-default}`), read in the syntax of the harness that wrote it, written back in one
 * form (`${X}`, defaults dropped so no value hides in the printable text), and resolved from a
 * given environment: pure, so the import can ask for consent first and resolve after.
 */
import type { Interpolation } from './found.ts';

const NAME = '[A-Za-z_][A-Za-z0-9_]*';
const PATTERNS: Readonly<Record<Exclude<Interpolation, 'none'>, RegExp>> = {
  braces: new RegExp(`\\$\\{(${NAME})\\}`, 'g'),
  'braces-default': new RegExp(`\\$\\{(${NAME})(?::-([^}]*))?\\}`, 'g'),
  'env-colon': new RegExp(`\\$\\{env:(${NAME})\\}`, 'g'),
  dollar: new RegExp(`\\$\\{(${NAME})\\}|\\$(${NAME})`, 'g'),
  hermes: new RegExp(`\\$\\{(?:env:)?(${NAME})\\}`, 'g'),
};

export interface VariableUse {
  variable: string;
  /** `${VAR:-default}`: what the harness uses when VAR is unset. Not printable: it may be a token. */
  fallback?: string | undefined;
}

function uses(match: RegExpMatchArray, interpolation: Interpolation): VariableUse {
  if (interpolation === 'dollar') return { variable: match[1] ?? match[2] ?? '' };
  return { variable: match[1] ?? '', fallback: interpolation === 'braces-default' ? match[2] : undefined };
}

/** The variables `text` refers to, in order. */
export function variablesIn(text: string, interpolation: Interpolation): VariableUse[] {
  if (interpolation === 'none') return [];
  return [...text.matchAll(PATTERNS[interpolation])].map((m) => uses(m, interpolation));
}

/** `text` with every reference written `${VAR}`; defaults are dropped. */
export function normalizeReferences(text: string, interpolation: Interpolation): string {
  if (interpolation === 'none') return text;
  return text.replace(PATTERNS[interpolation], (...m: string[]) => {
    const variable = interpolation === 'dollar' ? (m[1] ?? m[2]) : m[1];
    return `\${${variable}}`;
  });
}

export interface Resolved {
  value: string;
  /** Variables that were unset and had no default. */
  missing: string[];
}

/**
 * A normalized template (`Bearer ${TOKEN}`) filled from `env`; `fallbacks` holds the defaults
 * the harness had (`${VAR:-x}`). An unset variable without one stays as written and is named.
 */
export function resolveTemplate(
  template: string,
  env: Readonly<Record<string, string | undefined>>,
  fallbacks: Readonly<Record<string, string>> = {},
): Resolved {
  const missing: string[] = [];
  const value = template.replace(PATTERNS.braces, (all, variable: string) => {
    const found = env[variable] ?? fallbacks[variable];
    if (found !== undefined) return found;
    missing.push(variable);
    return all;
  });
  return { value, missing };
}
