/**
 * The dashboard a person adds sources from, for the add-a-source tests: the real local store,
 * the real connectors (MCP and OpenAPI), a secret store the test can read (and make refuse), the
 * dashboard app on a dashboard session (or a run's), every page kept so a test can hold that none
 * carries a secret; and the review page's confirm form read back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDashboard } from '../../dashboard/dashboard.tsx';
import type { PageSession } from '../../dashboard/session.ts';
import { KindConnector } from '../../engine/connectors/kind-connector.ts';
import { McpConnector } from '../../engine/connectors/mcp-connector.ts';
import { OpenApiConnector } from '../../engine/connectors/openapi-connector.ts';
import type { PageTarget } from '../../engine/contracts/pages.ts';
import type { Engine } from '../../engine/engine.ts';
import { type LocalStore, openLocalStore } from '../../local/open-store.ts';
import { localWording } from '../../local/wording.ts';
import { engineWithoutSandbox } from '../engine-without-sandbox.ts';

export const CSRF = 'csrf-token-of-the-test-session';
/** The credential the MCP board requires. */
export const TOKEN = 'board-token-3f9a1c77e2b84d06a5';
export const T0 = 1_800_000_000_000;

export class World {
  readonly dir = mkdtempSync(join(tmpdir(), 'capabilities-dashboard-add-'));
  readonly local: LocalStore = openLocalStore(join(this.dir, 'hub.db'), T0);
  readonly held = new Map<string, string>();
  /** When set, the secret store refuses to keep a value (a keychain that says no). */
  refuseSet = false;
  readonly connector = new KindConnector(
    new McpConnector({ version: '0.0.0-test', wording: localWording }),
    new OpenApiConnector(),
  );
  now = T0;
  readonly engine: Engine;

  constructor() {
    this.engine = engineWithoutSandbox({
      wording: localWording,
      store: this.local.store,
      connector: this.connector,
      secrets: {
        where: 'this test',
        get: async (key) => this.held.get(key),
        set: async (key, value) => {
          if (this.refuseSet) throw new Error('the secret store refused the value');
          this.held.set(key, value);
        },
        delete: async (key) => void this.held.delete(key),
      },
      clock: { now: () => this.now },
      random: { bytes: (n) => crypto.getRandomValues(new Uint8Array(n)) },
    });
  }

  app(scope: PageTarget = { kind: 'dashboard' }) {
    const session: PageSession = { who: 'ana', csrf: CSRF, scope };
    return createDashboard({
      desk: this.engine.desk,
      clock: { now: () => this.now },
      review: this.engine.sources,
      adding: this.engine.drafts,
      wording: this.engine.wording,
      session: async (c, next) => {
        c.set('session', session);
        await next();
      },
    });
  }

  /** Every page a test saw, to hold that none carries the secret. */
  readonly pages: string[] = [];

  async request(path: string, form?: Record<string, string>, scope?: PageTarget) {
    const response = await this.app(scope).request(
      path,
      form ? { method: 'POST', body: new URLSearchParams(form) } : {},
    );
    const html = await response.text();
    this.pages.push(html);
    return { status: response.status, html, location: response.headers.get('location') };
  }

  /** Posts the add form as a browser fills it: the token the server requires, the default header. */
  begin(url: string, extra: Record<string, string> = {}) {
    const browser = { header: 'Authorization', scheme: 'Bearer' };
    return this.request('/sources/new', { csrf: CSRF, url, credential: TOKEN, ...browser, ...extra });
  }

  draftKeys(): string[] {
    return [...this.held.keys()].filter((key) => key.startsWith('DRAFT__'));
  }

  async close(): Promise<void> {
    await this.connector.close();
    this.local.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The review page's confirm form: the draft's id, the namespace proposed, each row's contract. */
export function reviewOf(html: string) {
  const id = /action="\/sources\/new\/(draft_[a-f0-9]+)\/confirm"/.exec(html)?.[1];
  const namespace = /name="namespace"[^>]*value="([^"]*)"/.exec(html)?.[1];
  const contracts = Object.fromEntries(
    [...html.matchAll(/name="contract:([^"]+)" value="([^"]+)"/g)].map((m) => [
      `contract:${m[1]}`,
      m[2] as string,
    ]),
  );
  if (!id || namespace === undefined)
    throw new Error(`not a review page: ${/role="alert">[^<]*/.exec(html)?.[0] ?? html.slice(-800)}`);
  return { id, namespace, contracts };
}
