/**
 * The dashboard behind sign-in, through the Worker's own fetch in workerd: a signed-in person's
 * requests are rendered by their own HubObject; a waiting run of theirs is in their inbox and
 * nobody else's; deciding needs their session and its CSRF token; another person's run is not
 * found; no session means sign in first, and a header a browser forges is overwritten. On a
 * source's page a person changes a tool's rule and removes the source (its secrets go with it),
 * each recorded in the source's history as theirs; every page has a Sign out button that ends
 * the session.
 */
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { HubObject } from '../../durable-objects/hub-object.ts';
import { SIGNED_IN_HEADER } from '../../durable-objects/signed-in-header.ts';
import { decisionsOf, hubOf, reviewedSource, signedIn as signIn, waitingRun } from './people.ts';
import { worker } from './worker-client.ts';

const call = (path: string, init: RequestInit = {}) =>
  worker.fetch(new Request(`https://hub.example${path}`, { ...init, redirect: 'manual' }));

describe('the dashboard behind sign-in', () => {
  it('shows a person their own waiting run, and lets only them decide it, with their CSRF token', async () => {
    await waitingRun('github:7001', 'run_ana');
    const ana = await signIn(7001, 'ana');
    const bo = await signIn(7002, 'bo');

    const inbox = await call('/', { headers: { cookie: ana.cookie } });
    expect(inbox.status).toBe(200);
    expect(await inbox.text()).toContain('board.post');
    const theirs = await call('/', { headers: { cookie: bo.cookie } });
    expect(await theirs.text()).not.toContain('board.post');
    expect((await call('/runs/run_ana', { headers: { cookie: bo.cookie } })).status).toBe(404);

    const form = (csrf: string) => new URLSearchParams({ pendingId: 'run_ana_p0', choice: 'once', csrf });
    const post = (cookie: string, body: URLSearchParams) =>
      call('/runs/run_ana/decide', {
        method: 'POST',
        headers: {
          cookie,
          'content-type': 'application/x-www-form-urlencoded',
          origin: 'https://hub.example',
        },
        body,
      });
    expect((await post(bo.cookie, form(bo.csrf))).status).toBe(404);
    expect((await post(ana.cookie, form(bo.csrf))).status).toBe(403);
    expect(await decisionsOf('github:7001', 'run_ana')).toEqual([]);
    expect((await post(ana.cookie, form(ana.csrf))).status).toBe(303);
    expect(await decisionsOf('github:7001', 'run_ana')).toEqual([
      expect.objectContaining({ pendingId: 'run_ana_p0', choice: 'once', who: 'github:ana' }),
    ]);
  });

  it('sends someone without a session to sign in, and a forged signed-in header changes nothing', async () => {
    const page = await call('/runs', {
      headers: { [SIGNED_IN_HEADER]: JSON.stringify({ who: 'github:mallory', csrf: 'x' }) },
    });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('/login?next=%2Fruns');
    const post = await call('/runs/run_x/decide', {
      method: 'POST',
      headers: { [SIGNED_IN_HEADER]: JSON.stringify({ who: 'github:mallory', csrf: 'x' }) },
      body: new URLSearchParams({ pendingId: 'p', choice: 'once', csrf: 'x' }),
    });
    expect(post.status).toBe(401);
  });

  it('lets a person enter a connection’s credential on the source page, kept encrypted in their hub alone', async () => {
    const secret = 'ghp_hostedPageSecret0123456789abcdefghij';
    await reviewedSource('github:7101', 'vault', 'https://vault.example/mcp', [
      {
        name: 'read',
        description: 'Read.',
        inputSchema: { type: 'object' },
        annotations: { readOnlyHint: true },
      },
    ]);
    const ana = await signIn(7101, 'ana');
    const page = await call('/sources/vault', { headers: { cookie: ana.cookie } });
    expect(await page.text()).toContain('name="secret" type="password"');
    const kept = await call('/sources/vault/connection', {
      method: 'POST',
      headers: { cookie: ana.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        csrf: ana.csrf,
        connection: 'default',
        header: 'Authorization',
        scheme: 'Bearer',
        secret,
      }),
    });
    expect(kept.status).toBe(303);
    await runInDurableObject(hubOf('github:7101'), async (hub: HubObject, state) => {
      const [connection] = hub.store.listConnections('vault');
      expect(connection?.secrets[0]?.delivery).toEqual({
        kind: 'header',
        name: 'Authorization',
        scheme: 'Bearer',
      });
      expect(JSON.stringify([...(await state.storage.list()).entries()])).not.toContain(secret);
    });
    const after = await call('/sources/vault', { headers: { cookie: ana.cookie } });
    expect(await after.text()).not.toContain(secret);
  });

  it('changes a tool’s rule and removes a source from its page, recorded as the person’s, secrets gone', async () => {
    const secret = 'ghp_hostedRemovalSecret0123456789abcdefgh';
    await reviewedSource('github:7201', 'vault', 'https://vault.example/mcp', [
      { name: 'move', description: 'Move money.', inputSchema: { type: 'object' } },
    ]);
    const contract = await runInDurableObject(hubOf('github:7201'), async (hub: HubObject, state) => {
      await hub.engine.sources.saveCredential(
        'vault',
        'default',
        { kind: 'header', name: 'Authorization', scheme: 'Bearer' },
        secret,
      );
      // The connection's secret, encrypted, under a key naming its source.
      const kept = [...(await state.storage.list()).keys()].filter((key) =>
        key.toLowerCase().includes('vault'),
      );
      expect(kept).toHaveLength(1);
      return hub.store.getManifest('vault')?.tools[0]?.contract ?? '';
    });
    const ana = await signIn(7201, 'ana');
    const post = (path: string, form: Record<string, string>) =>
      call(path, {
        method: 'POST',
        headers: {
          cookie: ana.cookie,
          'content-type': 'application/x-www-form-urlencoded',
          origin: 'https://hub.example',
        },
        body: new URLSearchParams(form),
      });
    const page = await (await call('/sources/vault', { headers: { cookie: ana.cookie } })).text();
    expect(page).toContain(`<code>${contract}</code>`);
    const rule = { csrf: ana.csrf, address: 'vault.move', contract, rule: 'allow' };
    // Another site's form is refused by the Worker before the hub reads it.
    const foreign = await call('/sources/vault/rule', {
      method: 'POST',
      headers: {
        cookie: ana.cookie,
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://evil.example',
      },
      body: new URLSearchParams(rule),
    });
    expect(foreign.status).toBe(403);
    expect((await post('/sources/vault/rule', { ...rule, csrf: 'not-it' })).status).toBe(403);
    expect((await post('/sources/vault/rule', rule)).status).toBe(303);
    await runInDurableObject(hubOf('github:7201'), async (hub: HubObject) => {
      expect(hub.store.listPolicyRules('vault.move').map((r) => [r.effect, r.contract])).toEqual([
        ['allow', contract],
      ]);
    });

    const removal = await (await call('/sources/vault/remove', { headers: { cookie: ana.cookie } })).text();
    expect(removal).toContain('its 1 connection: default (1 stored secret)');
    expect((await post('/sources/vault/remove', { csrf: 'not-it', confirm: 'remove' })).status).toBe(403);
    const shown = /name="shown" value="([0-9a-f]{64})"/.exec(removal)?.[1] ?? '';
    const removed = await post('/sources/vault/remove', { csrf: ana.csrf, confirm: 'remove', shown });
    expect(removed.status).toBe(303);
    await runInDurableObject(hubOf('github:7201'), async (hub: HubObject, state) => {
      expect(hub.store.getSource('vault')).toBeUndefined();
      expect(hub.store.listPolicyRules()).toEqual([]);
      expect(hub.store.listConnections()).toEqual([]);
      // Its encrypted secret went with it: nothing in the hub's storage holds a secret any more.
      const keys = [...(await state.storage.list()).keys()];
      expect(keys.filter((key) => key.toLowerCase().includes('vault'))).toEqual([]);
      expect(
        hub.engine.desk.sources.history({ namespace: 'vault' }).map((e) => [e.who, e.change.kind]),
      ).toEqual([
        ['github:ana', 'removed'],
        ['github:ana', 'rule'],
      ]);
    });
    const list = await (await call('/sources', { headers: { cookie: ana.cookie } })).text();
    expect(list).toContain('vault: ');
    expect(list).toContain(
      'github:ana: removed, with 1 tool, 1 connection and the secrets stored for it, 1 policy rule',
    );
  });

  it('has a Sign out button on every page that ends the session', async () => {
    const ana = await signIn(7301, 'ana');
    for (const path of ['/', '/runs', '/sources', '/nowhere']) {
      const html = await (await call(path, { headers: { cookie: ana.cookie } })).text();
      expect(html, path).toContain(
        `<form method="post" action="/logout"><input type="hidden" name="csrf" value="${ana.csrf}"/><button type="submit">Sign out</button></form>`,
      );
    }
    const out = await call('/logout', {
      method: 'POST',
      headers: {
        cookie: ana.cookie,
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://hub.example',
      },
      body: new URLSearchParams({ csrf: ana.csrf }),
    });
    expect(out.status).toBe(302);
    expect(out.headers.get('location')).toBe('/');
    const after = await call('/sources', { headers: { cookie: ana.cookie } });
    expect(after.status).toBe(302);
    expect(after.headers.get('location')).toBe('/login?next=%2Fsources');
  });
});
