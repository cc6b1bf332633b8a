/** Runs the HubStore contract against the HubObject Durable Object, inside workerd. */

import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { HubEnv } from '../../durable-objects/hub-env.ts';
import type { HubObject } from '../../durable-objects/hub-object.ts';
import { describeHubStore } from '../conformance/hub-store.suite.ts';

const hubs = (env as unknown as HubEnv).HUB;

describeHubStore({
  name: 'durable object sqlite',
  withStore: (body) =>
    runInDurableObject(hubs.get(hubs.newUniqueId()), (hub: HubObject, state) =>
      body({ store: hub.store, exec: (sql) => void state.storage.sql.exec(sql).toArray() }),
    ),
});
