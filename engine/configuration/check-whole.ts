/**
 * Whether a pushed configuration holds together, before anything is planned (used by
 * push.ts): each part under its own source, each secret key its connection's own, each value sent
 * named by a pushed connection and long enough to keep.
 */
import type { HubConfiguration } from '../contracts/configuration.ts';
import { HubError } from '../errors.ts';
import { secretKey } from '../secrets/secret-store.ts';
import { MIN_STORED_SECRET_LENGTH } from '../sources/save-credential.ts';
import { ruleNamespace } from './configuration-of.ts';

/**
 * Refuses a configuration whose parts do not belong together: a namespace, profile or skill twice, a record under
 * another source's namespace, a review that is not of its own tool at its contract, a secret key
 * that is not its connection's own (so no connection can name another's value) or that two
 * connections share, a value for a key no pushed connection names, a value too short to keep.
 *
 * A manifest's tools are taken as listed: their digests were taken before the local hub cut or
 * scrubbed what it stores, so they are not recomputed here; a review may be of a contract the
 * manifest no longer holds (a tool changed since it was approved asks again, as on the local hub).
 */
export function checkWhole(parsed: {
  configuration: HubConfiguration;
  secrets: Record<string, string>;
}): void {
  const seen = new Set<string>();
  const keys = new Set<string>();
  const refuse = (what: string) => {
    throw new HubError('invalid_input', `the push does not hold together: ${what}; nothing was planned`);
  };
  for (const entry of parsed.configuration.sources) {
    const namespace = entry.source.namespace;
    if (seen.has(namespace)) refuse(`the source "${namespace}" is there twice`);
    seen.add(namespace);
    if (entry.manifest && entry.manifest.namespace !== namespace)
      refuse(`the manifest of "${namespace}" names another source`);
    for (const tool of entry.manifest?.tools ?? []) {
      if (!tool.address.startsWith(`${namespace}.`))
        refuse(`the tool ${tool.address} is not under "${namespace}"`);
    }
    for (const review of entry.reviews) {
      if (review.namespace !== namespace || !review.address.startsWith(`${namespace}.`)) {
        refuse(`the review of ${review.address} is not under "${namespace}"`);
      }
      if (review.tool.address !== review.address || review.tool.contract !== review.contract) {
        refuse(`the review of ${review.address} does not carry that tool at its contract`);
      }
    }
    for (const connection of entry.connections) {
      if (connection.namespace !== namespace)
        refuse(`the connection ${connection.namespace}/${connection.name} is not under "${namespace}"`);
      const own = secretKey(namespace, connection.name, '');
      for (const ref of connection.secrets) {
        if (!ref.key.startsWith(own) || ref.key.length === own.length) {
          refuse(
            `the secret ${ref.key} of ${namespace}/${connection.name} is not that connection's own (its keys begin ${own})`,
          );
        }
        if (keys.has(ref.key)) refuse(`the secret ${ref.key} is named by two connections`);
        keys.add(ref.key);
      }
    }
    for (const rule of entry.policies) {
      if (ruleNamespace(rule) !== namespace) refuse(`the rule ${rule.id} is not about "${namespace}"`);
    }
  }
  const profiles = new Set<string>();
  for (const profile of parsed.configuration.profiles) {
    if (profiles.has(profile.name)) refuse(`the profile "${profile.name}" is there twice`);
    profiles.add(profile.name);
  }
  const skills = new Set<string>();
  for (const skill of parsed.configuration.skills) {
    if (skills.has(skill.name)) refuse(`the skill "${skill.name}" is there twice`);
    skills.add(skill.name);
  }
  for (const [key, value] of Object.entries(parsed.secrets)) {
    if (!keys.has(key)) refuse(`a value is sent for ${key}, which no pushed connection names`);
    if (value.length < MIN_STORED_SECRET_LENGTH) {
      refuse(
        `the value for ${key} is shorter than ${MIN_STORED_SECRET_LENGTH} characters, short enough to be guessed`,
      );
    }
  }
}
