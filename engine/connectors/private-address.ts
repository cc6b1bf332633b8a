/**
 * Whether a URL's host names a private place: an address or a name that leads into a private
 * network, this machine, or a cloud's metadata service rather than the public internet. The
 * hosted hub refuses such hosts for its sources (server-side request forgery); see
 * guarded-fetch.ts. Pure and runtime-neutral: it reads the host as the WHATWG URL parser leaves
 * it, which already turns IPv4 written in odd forms (`2130706433`, `0x7f.1`, `0177.0.0.1`,
 * `127.1`, full-width digits) into dotted decimal and IPv6 into its compressed hex form, so those
 * are judged like any other address.
 *
 * It judges the host as written. A public name whose DNS answer is a private address cannot be
 * caught here: the runtime's own network rules are the other half of the defence.
 */

/** An IPv4 range: its first address as a 32-bit number, its prefix length, and why it is private. */
type Range4 = readonly [base: number, prefix: number, reason: string];

const V4: readonly Range4[] = [
  [ipv4(0, 0, 0, 0), 8, 'this network (0.0.0.0/8, which reaches the machine itself)'],
  [ipv4(10, 0, 0, 0), 8, 'private network'],
  [ipv4(100, 64, 0, 0), 10, 'shared address space (carrier-grade NAT)'],
  [ipv4(127, 0, 0, 0), 8, 'loopback'],
  [ipv4(169, 254, 0, 0), 16, 'link-local (cloud metadata)'],
  [ipv4(172, 16, 0, 0), 12, 'private network'],
  [ipv4(192, 0, 0, 0), 24, 'IETF protocol assignments'],
  [ipv4(192, 168, 0, 0), 16, 'private network'],
  [ipv4(198, 18, 0, 0), 15, 'benchmarking network'],
  [ipv4(255, 255, 255, 255), 32, 'broadcast'],
  [ipv4(224, 0, 0, 0), 4, 'multicast'],
  [ipv4(240, 0, 0, 0), 4, 'reserved'],
];

/** Names that lead into a private network by convention; matched as the name or any subdomain. */
const NAMES: readonly (readonly [suffix: string, reason: string])[] = [
  ['metadata.google.internal', 'cloud metadata'],
  ['localhost', 'loopback (localhost)'],
  ['local', 'local network name (.local)'],
  ['internal', 'internal network name (.internal)'],
  ['home.arpa', 'home network name (.home.arpa)'],
  ['localdomain', 'local network name (.localdomain)'],
];

/**
 * Why `url`'s host is a private place, in words ("loopback", "link-local (cloud metadata)", …),
 * or undefined when it may be public.
 */
export function privateAddressReason(url: URL | string): string | undefined {
  return privateHostReason(hostOf(url));
}

/**
 * The same for a host name as an http(s) URL's `hostname` holds it: lower case, IPv4 in dotted
 * decimal, IPv6 in brackets.
 */
export function privateHostReason(hostname: string): string | undefined {
  const host = hostname.toLowerCase().replace(/\.+$/, '');
  if (host === '') return 'no host name';
  if (host.startsWith('[') && host.endsWith(']')) {
    const groups = parseIpv6(host.slice(1, -1));
    return groups ? ipv6Reason(groups) : 'an IPv6 address that cannot be read';
  }
  const v4 = parseIpv4(host);
  if (v4 !== undefined) return ipv4Reason(v4);
  for (const [suffix, reason] of NAMES) {
    if (host === suffix || host.endsWith(`.${suffix}`)) return reason;
  }
  if (!host.includes('.')) return 'a name without a domain (resolved only on a local network)';
  return undefined;
}

/** The host of `url` as the WHATWG parser normalizes it for http(s), whatever its scheme. */
function hostOf(url: URL | string): string {
  const parsed = typeof url === 'string' ? new URL(url) : url;
  if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed.hostname;
  // Other schemes keep an opaque host; read it again as http(s) would.
  try {
    return new URL(`http://${parsed.host}/`).hostname;
  } catch {
    return parsed.hostname;
  }
}

function ipv4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

/** A dotted-decimal IPv4 address as a number, or undefined when `host` is not one. */
function parseIpv4(host: string): number | undefined {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return undefined;
  const octets = parts.map(Number);
  if (octets.some((o) => o > 255)) return undefined;
  const [a = 0, b = 0, c = 0, d = 0] = octets;
  return ipv4(a, b, c, d);
}

function ipv4Reason(address: number): string | undefined {
  for (const [base, prefix, reason] of V4) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    if ((address & mask) >>> 0 === base) return reason;
  }
  return undefined;
}

/** An IPv6 address (no brackets) as eight 16-bit groups, or undefined when it is not one. */
function parseIpv6(text: string): number[] | undefined {
  let body = text;
  const tail: number[] = [];
  const dotted = /(?:^|:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(body);
  if (dotted?.[1]) {
    const v4 = parseIpv4(dotted[1]);
    if (v4 === undefined) return undefined;
    tail.push(v4 >>> 16, v4 & 0xffff);
    body = body.slice(0, body.length - dotted[1].length);
    if (body.endsWith(':') && !body.endsWith('::')) body = body.slice(0, -1);
  }
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const read = (part: string | undefined): number[] | undefined => {
    if (!part) return [];
    const groups = part.split(':');
    if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
    return groups.map((g) => Number.parseInt(g, 16));
  };
  const head = read(halves[0]);
  const rest = read(halves[1]);
  if (!head || !rest) return undefined;
  const known = head.length + rest.length + tail.length;
  if (halves.length === 1) return known === 8 ? [...head, ...tail] : undefined;
  if (known > 7) return undefined;
  return [...head, ...new Array<number>(8 - known).fill(0), ...rest, ...tail];
}

function ipv6Reason(g: number[]): string | undefined {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = ((g6 << 16) | g7) >>> 0;
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(8)) return 'unspecified (::, which reaches the machine itself)';
  if (zeroTo(7) && g7 === 1) return 'loopback';
  // ::ffff:a.b.c.d (IPv4-mapped) and ::a.b.c.d (IPv4-compatible) go to the IPv4 address they hold.
  if (zeroTo(5) && g5 === 0xffff) return inside(ipv4Reason(embedded), 'IPv4-mapped');
  // IPv4-compatible addresses are deprecated and never routed: private whatever they hold.
  if (zeroTo(6))
    return inside(ipv4Reason(embedded), 'IPv4-compatible') ?? 'IPv4-compatible (deprecated, never routed)';
  // 64:ff9b::/96, NAT64: a gateway forwards it to the IPv4 address it holds.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return inside(ipv4Reason(embedded), 'NAT64');
  }
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'NAT64 for local use';
  // ::ffff:0:a.b.c.d, IPv4-translated (SIIT): a translator forwards it to the IPv4 address it holds.
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return inside(ipv4Reason(embedded), 'IPv4-translated');
  // 2001::/32, Teredo: a tunnel to whatever relay and client it names; never a public server's address.
  if (g0 === 0x2001 && g1 === 0) return 'Teredo tunnel (2001::/32)';
  // 100::/64, the discard prefix.
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return 'discard-only (100::/64)';
  if ((g0 & 0xfe00) === 0xfc00) return 'unique local (private network)';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xffc0) === 0xfec0) return 'site-local';
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  // 2002::/16, 6to4: the IPv4 address sits in groups 1 and 2.
  if (g0 === 0x2002) return inside(ipv4Reason(((g1 << 16) | g2) >>> 0), '6to4');
  return undefined;
}

function inside(reason: string | undefined, how: string): string | undefined {
  return reason === undefined ? undefined : `${reason} (${how})`;
}
