/**
 * The signed `requestState` of a client prompt (spec: Approvals over MCP; MCP 2026-07-28,
 * multi-round-trip requests). The state travels through the client and comes back with the
 * person's answers, so on re-entry it is attacker-controlled input: it is accepted only with a
 * valid HMAC-SHA256 under this hub's key, for this hub, before its expiry.
 *
 * - The key is a hub setting (`prompt_key`, 32 random bytes as hex) created on first use with
 *   `claimSetting`, so every process serving the hub (each `serve --stdio`, the HTTP server,
 *   the Durable Object) signs and verifies with the same key, and another hub's key fails.
 * - A state names the hub, the run, the pending calls it asks about, a random nonce and an
 *   expiry on the hub's Clock. That it is used once is held by the store: a decision is
 *   recorded once per pending call (client-prompt.ts refuses a state whose calls are decided).
 * - Wire shape: `cp1.<base64url(JSON claim)>.<base64url(mac)>`, the MAC over a domain label
 *   plus the body. It mirrors the SDK's `createRequestStateCodec`, which cannot be used here:
 *   it reads `Date.now()` rather than the Clock port, and its `verify` wants the MCP request
 *   context, which does not cross to the HubObject over RPC. WebCrypto only, so it runs in
 *   Workers and Node alike. Signed, not encrypted: the claim holds ids, never a secret.
 */
import { z } from 'zod';
import { Id, Timestamp } from '../contracts/names.ts';
import { HubError } from '../errors.ts';
import { base64url, hex } from '../hex.ts';
import type { Clock, HubStore, Random } from '../ports.ts';
import { PROMPT_KEY_SETTING } from '../settings.ts';
import type { HostWording } from '../wording.ts';

export { PROMPT_KEY_SETTING };
/** The most pending calls one state (one prompt) names; a run has at most maxConcurrent in flight. */
export const MAX_PROMPT_CALLS = 64;

const PREFIX = 'cp1.';
const LABEL = 'capabilities.client-prompt.v1\u0000';

/** What a state says, once its MAC has been checked. */
export const PromptClaim = z.strictObject({
  hub: Id,
  run: Id,
  /** The pending inputs the prompt asks about, one form each. */
  calls: z.array(Id).min(1).max(MAX_PROMPT_CALLS),
  nonce: z.string().regex(/^[0-9a-f]{32}$/),
  /** Epoch ms on the hub's Clock. */
  exp: Timestamp,
});
export type PromptClaim = z.infer<typeof PromptClaim>;

export interface PromptStateDeps {
  store: HubStore;
  hubId: string;
  clock: Clock;
  random: Random;
  /** How a person decides without the prompt, in the host's words (said when a state is refused). */
  wording: HostWording;
}

/** The imported HMAC key (named this way because Node's types declare `CryptoKey` as a value). */
type HmacKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

/** The bytes of canonical unpadded base64url (so no two strings carry the same state). */
function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return base64url(bytes) === text ? bytes : undefined;
  } catch {
    return undefined;
  }
}

/** Why a state was refused. Opaque to the client: it says what to do, never what was wrong inside. */
const refused = (why: string, wording: HostWording) =>
  new HubError(
    'denied',
    `the answer came with a request state that is ${why}; nothing was decided. Resume the run to be asked again, or ${wording.decideElsewhere}.`,
  );

/** Signs and opens prompt states with the hub's key. */
export class PromptState {
  readonly #deps: PromptStateDeps;
  #key: Promise<HmacKey> | undefined;

  constructor(deps: PromptStateDeps) {
    this.#deps = deps;
  }

  /** A fresh random nonce, as the claim holds it. */
  nonce(): string {
    return hex(this.#deps.random.bytes(16));
  }

  /** The wire string for `claim`. */
  async sign(claim: PromptClaim): Promise<string> {
    const body = base64url(new TextEncoder().encode(JSON.stringify(PromptClaim.parse(claim))));
    const mac = await crypto.subtle.sign('HMAC', await this.#hmacKey(), this.#signed(body));
    return `${PREFIX}${body}.${base64url(new Uint8Array(mac))}`;
  }

  /**
   * The claim of a state this hub signed, still valid now; throws HubError('denied') for a
   * malformed, tampered, foreign or expired state.
   */
  async open(state: string): Promise<PromptClaim> {
    const dot = state.lastIndexOf('.');
    if (!state.startsWith(PREFIX) || dot <= PREFIX.length || state.length > 8192)
      throw refused('malformed', this.#deps.wording);
    const body = state.slice(PREFIX.length, dot);
    const mac = fromBase64url(state.slice(dot + 1));
    const bytes = fromBase64url(body);
    if (!mac || !bytes) throw refused('malformed', this.#deps.wording);
    // subtle.verify compares in constant time.
    if (!(await crypto.subtle.verify('HMAC', await this.#hmacKey(), mac, this.#signed(body)))) {
      throw refused('not signed by this hub', this.#deps.wording);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes));
    } catch {
      throw refused('malformed', this.#deps.wording);
    }
    const claim = PromptClaim.safeParse(parsed);
    if (!claim.success) throw refused('malformed', this.#deps.wording);
    if (claim.data.hub !== this.#deps.hubId) throw refused('for another hub', this.#deps.wording);
    if (this.#deps.clock.now() >= claim.data.exp) throw refused('expired', this.#deps.wording);
    return claim.data;
  }

  #signed(body: string): Uint8Array<ArrayBuffer> {
    // A copy: workers-types type encode()'s buffer as possibly shared, which WebCrypto refuses.
    return new Uint8Array(new TextEncoder().encode(LABEL + body));
  }

  #hmacKey(): Promise<HmacKey> {
    this.#key ??= (async () => {
      const stored = this.#deps.store.claimSetting(PROMPT_KEY_SETTING, hex(this.#deps.random.bytes(32)));
      if (!/^(?:[0-9a-f]{2}){32,}$/.test(stored)) {
        throw new HubError(
          'corrupt',
          `the hub's ${PROMPT_KEY_SETTING} setting is not at least 32 bytes of hex; client prompts cannot be signed until it is removed from the store`,
        );
      }
      const raw = Uint8Array.from(stored.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
      return crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, [
        'sign',
        'verify',
      ]);
    })();
    return this.#key;
  }
}
