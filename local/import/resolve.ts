/**
 * Resolving an item's credentials at import time, once the person has agreed: plaintext values
 * as found, references filled from the environment given (the harness's `${VAR:-default}` when
 * unset). Pure: the caller passes `process.env` or a test's record, and decides what to do with
 * what is missing.
 */
import type { Credential } from './classify.ts';
import { resolveTemplate } from './references.ts';

export interface ResolvedCredential {
  /** Where the value goes: an env entry or header by name, the URL, `args[i]`, the command or its folder. */
  kind: 'env' | 'header' | 'url' | 'arg' | 'command' | 'cwd';
  name: string;
  value: string;
}

export interface Resolution {
  values: ResolvedCredential[];
  /** Variables referenced but unset, with no default: ask the person or leave the connection incomplete. */
  missing: { name: string; variable: string }[];
}

export function resolveCredentials(
  credentials: readonly Credential[],
  env: Readonly<Record<string, string | undefined>>,
): Resolution {
  const values: ResolvedCredential[] = [];
  const missing: Resolution['missing'] = [];
  const done = new Set<string>();
  for (const credential of credentials) {
    if (credential.kind !== 'reference') {
      values.push({ kind: credential.kind, name: credential.name, value: credential.value });
      continue;
    }
    const key = `${credential.where}\u0000${credential.name}`;
    if (done.has(key)) continue;
    done.add(key);
    // Every reference in the same value shares its template: fill them all at once.
    const fallbacks: Record<string, string> = {};
    for (const other of credentials) {
      if (
        other.kind === 'reference' &&
        other.where === credential.where &&
        other.name === credential.name &&
        other.fallback !== undefined
      ) {
        fallbacks[other.variable] = other.fallback;
      }
    }
    const resolved = resolveTemplate(credential.template, env, fallbacks);
    for (const variable of resolved.missing) missing.push({ name: credential.name, variable });
    if (resolved.missing.length === 0) {
      values.push({ kind: credential.where, name: credential.name, value: resolved.value });
    }
  }
  return { values, missing };
}
