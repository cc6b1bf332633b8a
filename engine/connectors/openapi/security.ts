/**
 * What credentials an OpenAPI document's operations use, and how each reaches the API: an API
 * key in a header, the query or a cookie; an HTTP bearer token; HTTP basic (a user and a
 * password, kept as their base64 with the `Basic` scheme). An OAuth 2 scheme with an
 * authorization code flow is read into what a sign-in needs (the document's authorization and
 * token URLs and the scopes its operations list); its grant reaches the API as a bearer token.
 * OpenID Connect and the implicit, password and client credentials flows are named as not
 * supported. Operations with an unsupported scheme are still added, and called without it.
 */
import type { CredentialAsk } from '../../contracts/connections.ts';
import { isObject, type OpenApiDocument } from './document.ts';

/** One credential `hub add` asks for, and an OAuth flow's part: defined with the connections. */
export type { CredentialAsk, OAuthFlowAsk } from '../../contracts/connections.ts';

/** The schemes the document's operations use, in the order the document names them. */
export function credentialAsks(document: OpenApiDocument): CredentialAsk[] {
  const root = document.root;
  const components = isObject(root.components) ? root.components : {};
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  const used = new Map<string, Set<string>>();
  const note = (requirements: unknown) => {
    if (!Array.isArray(requirements)) return;
    for (const requirement of requirements) {
      if (!isObject(requirement)) continue;
      for (const [name, scopes] of Object.entries(requirement)) {
        const seen = used.get(name) ?? new Set<string>();
        used.set(name, seen);
        if (Array.isArray(scopes)) for (const scope of scopes) if (typeof scope === 'string') seen.add(scope);
      }
    }
  };
  note(root.security);
  const paths = isObject(root.paths) ? root.paths : {};
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue;
    for (const operation of Object.values(item)) if (isObject(operation)) note(operation.security);
  }
  // Two schemes that put a value in the same place (two bearer tokens) are asked for once.
  const places = new Set<string>();
  return Object.entries(schemes)
    .filter(([name]) => used.has(name))
    .map(([name, scheme]) => ask(name, scheme, [...(used.get(name) ?? [])]))
    .filter((a) => {
      if (!a.delivery) return true;
      const place = `${a.delivery.kind}\u0000${'name' in a.delivery ? a.delivery.name.toLowerCase() : ''}`;
      return !places.has(place) && Boolean(places.add(place));
    });
}

function ask(name: string, scheme: unknown, scopes: string[]): CredentialAsk {
  if (!isObject(scheme)) return { scheme: name, label: `${name} (not a security scheme the hub reads)` };
  const type = String(scheme.type ?? '').toLowerCase();
  if (type === 'apikey' && typeof scheme.name === 'string' && scheme.name !== '') {
    const key = scheme.name;
    if (scheme.in === 'header' && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key))
      return {
        scheme: name,
        delivery: { kind: 'header', name: key, scheme: '' },
        label: `API key in header ${key}`,
      };
    if (scheme.in === 'query')
      return {
        scheme: name,
        delivery: { kind: 'query', name: key },
        label: `API key in query parameter ${key}`,
      };
    if (scheme.in === 'cookie' && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key))
      return { scheme: name, delivery: { kind: 'cookie', name: key }, label: `API key in cookie ${key}` };
  }
  if (type === 'http') {
    const http = String(scheme.scheme ?? '').toLowerCase();
    if (http === 'bearer')
      return {
        scheme: name,
        delivery: { kind: 'header', name: 'Authorization', scheme: 'Bearer' },
        label: 'HTTP bearer token',
      };
    if (http === 'basic')
      return {
        scheme: name,
        delivery: { kind: 'header', name: 'Authorization', scheme: 'Basic' },
        basic: true,
        label: 'HTTP basic (user and password)',
      };
  }
  if (type === 'oauth2') return oauthAsk(name, scheme, scopes);
  if (type === 'openidconnect')
    return {
      scheme: name,
      label: 'OpenID Connect sign-in, which the hub does not support for OpenAPI sources yet',
    };
  return { scheme: name, label: `${type || 'an unknown'} scheme, which the hub does not support yet` };
}

/** An OAuth 2 scheme: its authorization code flow when it has a usable one, else why not. */
function oauthAsk(name: string, scheme: Record<string, unknown>, scopes: string[]): CredentialAsk {
  const flows = isObject(scheme.flows) ? scheme.flows : {};
  const code = flows.authorizationCode;
  if (isObject(code)) {
    const authorizationUrl = webUrl(code.authorizationUrl);
    const tokenUrl = webUrl(code.tokenUrl);
    if (!authorizationUrl || !tokenUrl)
      return {
        scheme: name,
        label: 'OAuth 2 authorization code flow without a usable http(s) authorizationUrl and tokenUrl',
      };
    return {
      scheme: name,
      delivery: { kind: 'oauth' },
      oauth: { authorizationUrl, tokenUrl, scopes },
      label: 'OAuth 2 sign-in (authorization code flow)',
    };
  }
  const named = Object.keys(flows).filter((f) => ['implicit', 'password', 'clientCredentials'].includes(f));
  const flow = named.length > 0 ? `the ${named.join(' and ')} flow${named.length > 1 ? 's' : ''}` : 'no flow';
  return {
    scheme: name,
    label: `OAuth 2 with ${flow}, which the hub does not support (only the authorization code flow can be signed in to)`,
  };
}

/** `value` when it is an absolute http(s) URL, else undefined. */
function webUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || !URL.canParse(value)) return undefined;
  return /^https?:$/.test(new URL(value).protocol) ? value : undefined;
}

/** The value HTTP basic sends: base64 of `user:password` (UTF-8). */
export function basicCredential(user: string, password: string): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
