/** The fetch an HTTP source gets: allowed hosts only, same-origin redirects only, a size cap, no private places where the host refuses them. */
import { describe, expect, it } from 'vitest';
import { deliver } from '../../engine/connectors/connector.ts';
import { type FetchLike, guardedFetch } from '../../engine/connectors/guarded-fetch.ts';
import { hubErrorOf } from '../hub-error.ts';

/** A test double for the network: answers by URL, records what was asked. */
function network(routes: Record<string, () => Response>) {
  const seen: { url: string; auth: string | null }[] = [];
  const fetch: FetchLike = async (url, init) => {
    const href = String(url);
    seen.push({ url: href, auth: new Headers(init?.headers).get('authorization') });
    const route = routes[href];
    if (!route) throw new Error(`no route ${href}`);
    return route();
  };
  return { fetch, seen };
}

const guard = { allowedHosts: ['api.example.com'], maxResponseBytes: 1024 };
const init = { headers: { authorization: 'Bearer s3cret-token' } };

describe('guardedFetch', () => {
  it('reaches an allowed host', async () => {
    const net = network({ 'https://api.example.com/mcp': () => new Response('ok') });
    const response = await guardedFetch(guard, net.fetch)('https://api.example.com/mcp', init);
    expect(await response.text()).toBe('ok');
  });

  it('refuses any other host before sending anything', async () => {
    const net = network({});
    const e = await hubErrorOf(() => guardedFetch(guard, net.fetch)('https://evil.example/steal', init));
    expect(e.code).toBe('denied');
    // The person is shown the detail too; the model, which may read the message, is not told hosts.
    expect(`${e.message} ${e.detail}`).toContain('may reach only api.example.com');
    expect(e.message).not.toContain('api.example.com');
    expect(net.seen).toEqual([]);
  });

  it('follows a same-origin redirect with the credentials', async () => {
    const net = network({
      'https://api.example.com/old': () => new Response(null, { status: 307, headers: { location: '/new' } }),
      'https://api.example.com/new': () => new Response('moved'),
    });
    const response = await guardedFetch(guard, net.fetch)('https://api.example.com/old', init);
    expect(await response.text()).toBe('moved');
    expect(net.seen.map((s) => s.auth)).toEqual(['Bearer s3cret-token', 'Bearer s3cret-token']);
  });

  it('a request that changes something is sent again only where a redirect asks for it as it was', async () => {
    const post = { ...init, method: 'POST', body: '{}' };
    const net = network({
      'https://api.example.com/acted': () =>
        new Response(null, { status: 303, headers: { location: '/result' } }),
      'https://api.example.com/result': () => new Response('the result'),
      'https://api.example.com/moved': () =>
        new Response(null, { status: 308, headers: { location: '/new' } }),
      'https://api.example.com/new': () => new Response('sent at the new place'),
    });
    // After a 303 the server may have acted: its redirect is the answer, nothing is sent again.
    const acted = await guardedFetch(guard, net.fetch)('https://api.example.com/acted', post);
    expect(acted.status).toBe(303);
    expect(await (await guardedFetch(guard, net.fetch)('https://api.example.com/moved', post)).text()).toBe(
      'sent at the new place',
    );
    expect(net.seen.map((s) => s.url)).toEqual([
      'https://api.example.com/acted',
      'https://api.example.com/moved',
      'https://api.example.com/new',
    ]);
  });

  it('a redirect hop that fails after the first server took the request: sent, outcome unknown', async () => {
    const failing: FetchLike = async (url) => {
      if (String(url).endsWith('/old'))
        return new Response(null, { status: 307, headers: { location: '/new' } });
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', syscall: 'connect' }),
      });
    };
    const e = await hubErrorOf(() => guardedFetch(guard, failing)('https://api.example.com/old', init));
    expect(e.delivery).toBe('unknown');
  });

  it('never sends credentials across a cross-origin redirect', async () => {
    const guardBoth = { ...guard, allowedHosts: ['api.example.com', 'other.example.com'] };
    const net = network({
      'https://api.example.com/mcp': () =>
        new Response(null, { status: 302, headers: { location: 'https://other.example.com/mcp' } }),
    });
    const e = await hubErrorOf(() => guardedFetch(guardBoth, net.fetch)('https://api.example.com/mcp', init));
    expect(e.message).toContain('credentials never cross origins');
    // A POST's 302 is never sent again, and one that points elsewhere is still refused, saying why.
    const post = await hubErrorOf(() =>
      guardedFetch(guardBoth, net.fetch)('https://api.example.com/mcp', {
        ...init,
        method: 'POST',
        body: '{}',
      }),
    );
    expect(post.message).toContain('credentials never cross origins');
    expect(post.delivery).toBe('answered');
    expect(net.seen.map((s) => s.url)).toEqual([
      'https://api.example.com/mcp',
      'https://api.example.com/mcp',
    ]);
  });

  it("an OAuth connection's access token never crosses a redirect to another origin", async () => {
    const credentials = deliver('default', [{ delivery: { kind: 'oauth' }, value: 'at-oauth-0123456789' }]);
    expect(credentials.headers).toEqual({ Authorization: 'Bearer at-oauth-0123456789' });
    const guardBoth = { ...guard, allowedHosts: ['api.example.com', 'auth.example.com'] };
    const net = network({
      'https://api.example.com/mcp': () =>
        new Response(null, { status: 307, headers: { location: 'https://auth.example.com/mcp' } }),
      'https://auth.example.com/mcp': () => new Response('caught'),
    });
    const e = await hubErrorOf(() =>
      guardedFetch(guardBoth, net.fetch)('https://api.example.com/mcp', { headers: credentials.headers }),
    );
    expect(e.message).toContain('credentials never cross origins');
    expect(net.seen).toEqual([{ url: 'https://api.example.com/mcp', auth: 'Bearer at-oauth-0123456789' }]);
  });

  it('cuts off a response over the cap, declared or streamed', async () => {
    const big = 'x'.repeat(2048);
    const declared = network({
      'https://api.example.com/a': () => new Response(big, { headers: { 'content-length': '2048' } }),
    });
    expect(
      (await hubErrorOf(() => guardedFetch(guard, declared.fetch)('https://api.example.com/a'))).code,
    ).toBe('limit');
    const streamed = network({
      'https://api.example.com/b': () =>
        new Response(
          new ReadableStream({
            start(controller) {
              for (let i = 0; i < 4; i++) controller.enqueue(new TextEncoder().encode(big.slice(0, 512)));
              controller.close();
            },
          }),
        ),
    });
    const response = await guardedFetch(guard, streamed.fetch)('https://api.example.com/b');
    await expect(response.text()).rejects.toThrow(/response cap/);
  });

  it('refuses schemes other than http(s)', async () => {
    const e = await hubErrorOf(() =>
      guardedFetch({ ...guard, allowedHosts: [''] }, network({}).fetch)('file:///etc/passwd'),
    );
    expect(e.message).toContain('sources speak HTTP(S) only');
  });
});

describe('guardedFetch where private places are refused (the hosted hub)', () => {
  const hosted = { maxResponseBytes: 1024, privateAddresses: 'refuse' as const };

  it('refuses a private first URL before sending anything, saying why and what to do', async () => {
    for (const [url, reason] of [
      ['http://127.0.0.1:8080/mcp', 'loopback'],
      ['http://169.254.169.254/latest/meta-data/', 'link-local (cloud metadata)'],
      ['http://2130706433/mcp', 'loopback'],
      ['http://[::ffff:10.0.0.1]/mcp', 'private network (IPv4-mapped)'],
      ['http://metadata.google.internal/computeMetadata/v1/', 'cloud metadata'],
    ] as const) {
      const net = network({});
      const host = new URL(url).host;
      const e = await hubErrorOf(() =>
        guardedFetch({ ...hosted, allowedHosts: [host] }, net.fetch)(url, init),
      );
      expect(e.code).toBe('denied');
      expect(e.message).toContain(`refused a request to a private address (${reason})`);
      expect(e.message).toContain('Serve the source at a public https:// address');
      expect(e.message).not.toContain(host);
      expect(e.detail).toContain(host);
      expect(e.detail).toContain('ALLOW_PRIVATE_UPSTREAMS');
      expect(net.seen).toEqual([]);
    }
  });

  it('refuses a redirect from a public URL to a private one, and sends nothing there', async () => {
    const net = network({
      'https://api.example.com/mcp': () =>
        new Response('moved', {
          status: 302,
          headers: { location: 'http://169.254.169.254/latest/meta-data/iam/' },
        }),
    });
    const e = await hubErrorOf(() =>
      guardedFetch({ ...hosted, allowedHosts: ['api.example.com', '169.254.169.254'] }, net.fetch)(
        'https://api.example.com/mcp',
        init,
      ),
    );
    expect(e.code).toBe('denied');
    expect(e.message).toContain('refused a redirect to a private address (link-local (cloud metadata))');
    expect(net.seen.map((s) => s.url)).toEqual(['https://api.example.com/mcp']);
  });

  it('reaches public addresses as before', async () => {
    const net = network({
      'https://api.example.com/mcp': () => new Response('ok'),
      'https://8.8.8.8/': () => new Response('ok'),
      'https://[2606:4700::1111]/': () => new Response('ok'),
    });
    for (const url of ['https://api.example.com/mcp', 'https://8.8.8.8/', 'https://[2606:4700::1111]/']) {
      const host = new URL(url).host;
      const response = await guardedFetch({ ...hosted, allowedHosts: [host] }, net.fetch)(url);
      expect(await response.text()).toBe('ok');
    }
  });

  it('reaches private addresses where they are allowed (the local hub, the default)', async () => {
    const net = network({ 'http://127.0.0.1:8080/mcp': () => new Response('ok') });
    for (const privateAddresses of ['allow', undefined] as const) {
      const fetch = guardedFetch(
        { allowedHosts: ['127.0.0.1:8080'], maxResponseBytes: 1024, privateAddresses },
        net.fetch,
      );
      expect(await (await fetch('http://127.0.0.1:8080/mcp')).text()).toBe('ok');
    }
  });
});
