/** Runs the hostile-source contract against the HubObject's store, inside workerd. */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { HubEnv } from '../../durable-objects/hub-env.ts';
import type { HubObject } from '../../durable-objects/hub-object.ts';
import { describeHostileSource } from '../conformance/hostile-source.suite.ts';

const hubs = (env as unknown as HubEnv).HUB;

describeHostileSource({
  name: 'durable object sqlite',
  withStore: (body) => runInDurableObject(hubs.get(hubs.newUniqueId()), (hub: HubObject) => body(hub.store)),
});
