/**
 * A hub's configuration as `hub push` sends it (contracts/configuration.ts): every source with its
 * manifest, reviews, connections (references to secrets, never values) and policy rules, every
 * stored profile and every skill's record (never its bytes), read from the store. The local hub sends this; the hosted hub reads its own the same way to plan
 * against.
 */
import { namespaceOf } from '../address.ts';
import {
  CONFIGURATION_FORMAT,
  type ConfiguredSource,
  type HubConfiguration,
} from '../contracts/configuration.ts';
import type { PolicyRule } from '../contracts/policy.ts';
import type { HubStore } from '../ports.ts';

/** The namespace a rule belongs to: its source's, or its tool's source's. */
export function ruleNamespace(rule: PolicyRule): string {
  return rule.target.kind === 'source' ? rule.target.namespace : namespaceOf(rule.target.address);
}

export function configurationOf(store: HubStore): HubConfiguration {
  const rules = store.listPolicyRules();
  const sources = store.listSources().map((source): ConfiguredSource => {
    const namespace = source.namespace;
    const manifest = store.getManifest(namespace);
    return {
      source,
      ...(manifest ? { manifest } : {}),
      reviews: store.listReviews(namespace),
      connections: store.listConnections(namespace),
      policies: rules.filter((rule) => ruleNamespace(rule) === namespace),
    };
  });
  return {
    format: CONFIGURATION_FORMAT,
    sources,
    profiles: store.listProfiles(),
    skills: store.listSkills(),
  };
}
