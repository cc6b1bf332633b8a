/**
 * I4, "No way out" (spec: Security and approvals: "upstream traffic goes only to allowlisted
 * hosts; credentials stay on their origin"), as one suite of the roads from the hub to an
 * upstream HTTP API on either host: what an upstream answers cannot lead the hub, or the key it
 * holds, to another origin, cannot hand the model headers outside the allowlist, and arguments the
 * guest builds cannot move a request off the host the source was reviewed with.
 *
 * The upstream is a room of test/fixtures/upstream-standin.ts, its OpenAPI document added as a
 * person adds one with the API key typed in, as the namespace `room`. Two runners:
 * test/invariants/i4-upstreams.test.ts (a local hub, `hub add` through the CLI, the stand-in
 * served on 127.0.0.1 and a second listener on another port, another origin, that must hear
 * nothing) and test/invariants/i4-upstreams.workers.test.ts (the hosted hub in workerd, the
 * source added through the dashboard, the stand-in at a public-looking origin; it adds the hosted
 * hub's refusal of private addresses).
 *
 * | Way in            | Attack                                                        | Held                    |
 * | ----------------- | ------------------------------------------------------------- | ----------------------- |
 * | Upstream redirect | 301/302/303/307/308 to another origin, `//host`, the room's own host on another scheme or port | refused; nothing else hears it; no key in the answer; same origin followed |
 * | Upstream headers  | `set-cookie`, `x-secret-header`, the key in `x-echo-key` and in `link`, on a 200 and on a 500 | allowlisted ones only, key scrubbed |
 * | Guest arguments   | absolute URL, `//host`, `@host`, `\\host`, `../`, `?`/`#` in a path parameter; `url`/`server`/`host`/`baseUrl` arguments | encoded under the room's host and path |
 */
import { describe, expect, it } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import type { Host } from './invariant-hub.ts';

export interface UpstreamsHub {
  name: Host;
  /** The API key the person typed for `room`. */
  key: string;
  /** The room's base URL: its origin and path prefix. */
  base(): string;
  /** Runs `code` through execute: its envelope and the whole answer as text. */
  execute(code: string): Promise<{ envelope: ExecuteEnvelope; text: string }>;
  /** Every line the room counted, in order. */
  calls(): Promise<string[]>;
  /** The API key each request to the room's HTTP API carried (`''` for none), in order. */
  keys(): Promise<string[]>;
  /** Another origin the attacks point at (`scheme://host[:port]`), which no request may reach. */
  elsewhere(): string;
  /** What anything but the room heard of the attacks, where the host can listen there. */
  elsewhereHeard(): Promise<string[]>;
}

export function describeUpstreams(hub: UpstreamsHub): void {
  /** The room's calls made after `before` of them. */
  const since = async (before: number) => (await hub.calls()).slice(before);

  describe(`I4 on the ${hub.name} hub: the roads from the hub to upstream HTTP`, () => {
    it('refuses a redirect to another origin: nothing else hears it, no key in the answer', async () => {
      const before = (await hub.calls()).length;
      const keysBefore = (await hub.keys()).length;
      const base = new URL(hub.base());
      const elsewhere = new URL(hub.elsewhere());
      const otherScheme = `${base.protocol === 'https:' ? 'http:' : 'https:'}//${base.host}${base.pathname}/stolen`;
      const otherPort = `${base.protocol}//${base.hostname}:${Number(base.port || 443) + 1}${base.pathname}/stolen`;
      const targets = [
        ...['301', '302', '303', '307', '308'].map((status) => ({
          to: `${elsewhere.origin}/stolen`,
          status,
        })),
        { to: `//${elsewhere.host}/stolen`, status: '302' },
        { to: otherScheme, status: '307' },
        { to: otherPort, status: '302' },
      ];
      const { envelope, text } = await hub.execute(`
        const out = [];
        for (const target of ${JSON.stringify(targets)}) {
          try { out.push({ answered: await room.redirect(target) }); }
          catch (e) { out.push({ refused: String(e && e.message) }); }
        }
        out.push(await room.redirect({ to: ${JSON.stringify(`${hub.base()}/landed`)} }));
        return out;
      `);
      expect(envelope.status, text).toBe('completed');
      const out = envelope.result as { refused?: string; ok?: boolean }[];
      for (const [index, target] of targets.entries())
        expect(out[index]?.refused, JSON.stringify(target)).toContain('refused a redirect to another origin');
      // Control: a redirect within the room's own origin is followed.
      expect(out[targets.length]).toEqual({ ok: true });
      // Each refused request reached the room once and went nowhere after it; no hop to `/stolen`.
      expect(await since(before)).toEqual([
        ...targets.map(() => 'redirect /redirect'),
        'redirect /redirect',
        'GET /landed',
      ]);
      // Each call reached the room with its key, which went nowhere else.
      expect((await hub.keys()).slice(keysBefore, keysBefore + targets.length)).toEqual(
        targets.map(() => hub.key),
      );
      expect(await hub.elsewhereHeard()).toEqual([]);
      expect(text).not.toContain(hub.key);
    }, 60_000);

    it('hands the model only allowlisted response headers, and never the key in one', async () => {
      const before = (await hub.calls()).length;
      const { envelope, text } = await hub.execute(`
        const ok = await room.headers({ status: '200' }, { response: true });
        let failed;
        try { await room.headers({ status: '500' }); } catch (e) { failed = e.headers; }
        return { ok: ok.headers, failed };
      `);
      expect(envelope.status, text).toBe('completed');
      const seen = envelope.result as { ok?: Record<string, string>; failed?: Record<string, string> };
      for (const headers of [seen.ok, seen.failed]) {
        expect(Object.keys(headers ?? {}).sort()).toEqual(['content-type', 'link', 'x-ratelimit-remaining']);
        expect(headers?.link).toContain('key=[secret]');
        expect(headers?.['x-ratelimit-remaining']).toBe('41');
      }
      expect(await since(before)).toEqual(['GET /headers/200', 'GET /headers/500']);
      for (const leaked of [
        'not-for-the-model',
        'upstream=session',
        'set-cookie',
        'x-secret-header',
        'x-echo-key',
        hub.key,
      ])
        expect(text.toLowerCase(), leaked).not.toContain(leaked.toLowerCase());
    }, 60_000);

    it('keeps a request the guest builds on the reviewed host and path', async () => {
      const before = (await hub.calls()).length;
      const elsewhere = new URL(hub.elsewhere());
      const ids = [
        `${elsewhere.origin}/x`,
        `//${elsewhere.host}/x`,
        `@${elsewhere.host}`,
        `\\\\${elsewhere.host}\\x`,
        '../../x',
        `x?next=${elsewhere.origin}#frag`,
      ];
      const extras = [
        { url: elsewhere.origin },
        { server: elsewhere.origin },
        { host: elsewhere.host, baseUrl: elsewhere.origin },
      ];
      const { envelope, text } = await hub.execute(`
        const out = [];
        for (const id of ${JSON.stringify(ids)}) {
          try { out.push((await room.thing({ id })).ok); }
          catch (e) { out.push('refused: ' + e.message); }
        }
        for (const extra of ${JSON.stringify(extras)}) {
          try { out.push((await room.thing({ id: 'plain', ...extra })).ok); }
          catch (e) { out.push('refused: ' + e.message); }
        }
        return out;
      `);
      expect(envelope.status, text).toBe('completed');
      const heard = await since(before);
      // Every request the room heard stayed under /things/, one segment; every one was answered.
      for (const line of heard) expect(line).toMatch(/^GET \/things\/[^/?#]+$/);
      expect(heard).toHaveLength(ids.length + extras.length);
      expect(envelope.result).toEqual(heard.map(() => true));
      expect(await hub.elsewhereHeard()).toEqual([]);
    }, 60_000);
  });
}
