/**
 * Which hosts name a private place (engine/connectors/private-address.ts): every private, loopback,
 * link-local and reserved range, IPv4 written in the odd forms URL parsing turns into dotted
 * decimal, IPv6 forms that carry an IPv4 address, local names; and public ones left alone.
 */
import { describe, expect, it } from 'vitest';
import { privateAddressReason, privateHostReason } from '../../engine/connectors/private-address.ts';

const reason = (url: string) => privateAddressReason(new URL(url));

describe('IPv4 literals', () => {
  it.each([
    ['0.0.0.0', 'this network'],
    ['0.1.2.3', 'this network'],
    ['10.0.0.1', 'private network'],
    ['10.255.255.255', 'private network'],
    ['100.64.0.1', 'shared address space'],
    ['100.127.255.254', 'shared address space'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['169.254.0.1', 'link-local (cloud metadata)'],
    ['172.16.0.1', 'private network'],
    ['172.31.255.255', 'private network'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.168.1.1', 'private network'],
    ['198.18.0.1', 'benchmarking network'],
    ['198.19.255.255', 'benchmarking network'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.254', 'reserved'],
    ['255.255.255.255', 'broadcast'],
  ])('%s is %s', (host, expected) => {
    expect(reason(`http://${host}:8080/mcp`)).toContain(expected);
  });

  it('leaves the edges of each range public', () => {
    for (const host of [
      '9.255.255.255',
      '11.0.0.0',
      '100.63.255.255',
      '100.128.0.0',
      '126.255.255.255',
      '128.0.0.0',
      '169.253.255.255',
      '169.255.0.0',
      '172.15.255.255',
      '172.32.0.0',
      '192.0.1.0',
      '192.167.255.255',
      '192.169.0.0',
      '198.17.255.255',
      '198.20.0.0',
      '223.255.255.255',
    ]) {
      expect(reason(`https://${host}/`), host).toBeUndefined();
    }
  });

  it('judges IPv4 written in the odd forms WHATWG URL parsing normalizes', () => {
    // What the parser does with them (so the classifier sees dotted decimal):
    expect(new URL('http://2130706433/').hostname).toBe('127.0.0.1');
    expect(new URL('http://0x7f.1/').hostname).toBe('127.0.0.1');
    expect(new URL('http://0177.0.0.1/').hostname).toBe('127.0.0.1');
    expect(new URL('http://127.1/').hostname).toBe('127.0.0.1');
    expect(new URL('http://0/').hostname).toBe('0.0.0.0');
    for (const odd of [
      'http://2130706433/', // decimal
      'http://0x7f.1/', // hex and a short form
      'http://0x7f000001/', // one hex number
      'http://0177.0.0.1/', // octal
      'http://017700000001/', // one octal number
      'http://127.1/', // short form
      'http://127.0.0.1./', // a trailing dot
      'http://%31%32%37.0.0.1/', // percent-encoded
      'http://１２７.０.０.１/', // full-width digits (IDNA mapping)
    ]) {
      expect(reason(odd), odd).toBe('loopback');
    }
    expect(reason('http://2852039166/')).toBe('link-local (cloud metadata)'); // 169.254.169.254
    expect(reason('http://0xa9.0xfe.0xa9.0xfe/')).toBe('link-local (cloud metadata)');
    expect(reason('http://0/')).toContain('this network');
  });
});

describe('IPv6 literals', () => {
  it.each([
    ['[::]', 'unspecified (::, which reaches the machine itself)'],
    ['[::1]', 'loopback'],
    ['[0:0:0:0:0:0:0:1]', 'loopback'],
    ['[fc00::1]', 'unique local (private network)'],
    ['[fd12:3456:789a::1]', 'unique local (private network)'],
    ['[fe80::1]', 'link-local'],
    ['[febf:ffff::1]', 'link-local'],
    ['[ff02::1]', 'multicast'],
    ['[::ffff:127.0.0.1]', 'loopback (IPv4-mapped)'],
    ['[::ffff:7f00:1]', 'loopback (IPv4-mapped)'],
    ['[::ffff:169.254.169.254]', 'link-local (cloud metadata) (IPv4-mapped)'],
    ['[::ffff:10.1.2.3]', 'private network (IPv4-mapped)'],
    ['[::127.0.0.1]', 'loopback (IPv4-compatible)'],
    ['[::7f00:1]', 'loopback (IPv4-compatible)'],
    ['[64:ff9b::127.0.0.1]', 'loopback (NAT64)'],
    ['[64:ff9b::a9fe:a9fe]', 'link-local (cloud metadata) (NAT64)'],
    ['[64:ff9b::192.168.0.1]', 'private network (NAT64)'],
    ['[2002:7f00:1::]', 'loopback (6to4)'],
    ['[::808:808]', 'IPv4-compatible (deprecated, never routed)'],
    ['[::ffff:0:127.0.0.1]', 'loopback (IPv4-translated)'],
    ['[::ffff:0:a9fe:a9fe]', 'link-local (cloud metadata) (IPv4-translated)'],
    ['[2001:0:4136:e378:8000:63bf:3fff:fdd2]', 'Teredo tunnel (2001::/32)'],
    ['[100::1]', 'discard-only (100::/64)'],
  ])('%s is %s', (host, expected) => {
    expect(reason(`http://${host}:8080/`)).toBe(expected);
  });

  it('reads the compressed form the URL parser leaves', () => {
    expect(new URL('http://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');
    expect(new URL('http://[64:ff9b::10.0.0.1]/').hostname).toBe('[64:ff9b::a00:1]');
    expect(privateHostReason('[::ffff:127.0.0.1]')).toBe('loopback (IPv4-mapped)');
  });

  it('leaves public IPv6 alone, and the public IPv4 inside a mapped or NAT64 address', () => {
    for (const host of [
      '[2606:4700::1111]',
      '[2001:4860:4860::8888]',
      '[::ffff:8.8.8.8]',
      '[64:ff9b::1.1.1.1]',
      '[::ffff:0:8.8.8.8]',
    ]) {
      expect(reason(`https://${host}/`), host).toBeUndefined();
    }
  });
});

describe('names', () => {
  it.each([
    ['localhost', 'loopback (localhost)'],
    ['LOCALHOST', 'loopback (localhost)'],
    ['localhost.', 'loopback (localhost)'],
    ['api.localhost', 'loopback (localhost)'],
    ['ⓛocalhost', 'loopback (localhost)'],
    ['printer.local', 'local network name (.local)'],
    ['db.internal', 'internal network name (.internal)'],
    ['metadata.google.internal', 'cloud metadata'],
    ['nas.home.arpa', 'home network name (.home.arpa)'],
    ['router.localdomain', 'local network name (.localdomain)'],
    ['intranet', 'a name without a domain'],
    ['metadata', 'a name without a domain'],
  ])('%s is %s', (host, expected) => {
    expect(reason(`http://${host}/`)).toContain(expected);
  });

  it('leaves public names and addresses alone', () => {
    for (const url of [
      'https://example.com/mcp',
      'https://mcp.linear.app/mcp',
      'https://localhost.example.com/',
      'https://internal.example.com/',
      'http://8.8.8.8/',
      'https://1.1.1.1/',
      'https://[2606:4700::1111]/',
    ]) {
      expect(reason(url), url).toBeUndefined();
    }
  });

  it('reads the host of another scheme as http(s) would', () => {
    expect(privateAddressReason('ws://2130706433/')).toBe('loopback');
    expect(privateAddressReason('foo://2130706433/')).toBe('loopback');
  });
});
