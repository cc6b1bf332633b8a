/**
 * The push message encryption against RFC 8291's own example (section 5, Appendix A: the
 * published keys, salt and message), and the VAPID header as a push service checks it (RFC 8292).
 */
import { describe, expect, it } from 'vitest';
import { base64url } from '../../engine/hex.ts';
import {
  encryptPushBody,
  fromBase64url,
  generateVapidJwk,
  importEcdhKeyPair,
  importVapidKeys,
  vapidAuthorization,
} from '../../engine/push/web-push.ts';
import { checkVapid, decryptPushBody, testSubscription } from '../fixtures/push-receiver.ts';

// RFC 8291 §5, copied as published.
const RFC = {
  plaintext: 'When I grow up, I want to be a watermelon',
  asPublic: 'BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8',
  asPrivate: 'yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw',
  uaPublic: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
  uaPrivate: 'q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94',
  salt: 'DGv6ra1nlYgDCS1FRnbzlw',
  auth: 'BTBZMqHH6r4Tts7J_aSIgg',
  message:
    'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
};

describe('RFC 8291 §5', () => {
  it('encrypts the example to the published message, octet for octet', async () => {
    const body = await encryptPushBody({
      receiverPublic: fromBase64url(RFC.uaPublic),
      authSecret: fromBase64url(RFC.auth),
      plaintext: new TextEncoder().encode(RFC.plaintext),
      salt: fromBase64url(RFC.salt),
      sender: await importEcdhKeyPair(fromBase64url(RFC.asPrivate), fromBase64url(RFC.asPublic)),
    });
    expect(base64url(body)).toBe(RFC.message);
  });

  it('decrypts the published message with the user agent key, as a browser does', async () => {
    const receiver = await importEcdhKeyPair(fromBase64url(RFC.uaPrivate), fromBase64url(RFC.uaPublic));
    const text = await decryptPushBody(fromBase64url(RFC.message), {
      endpoint: 'https://push.example.net/push/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV',
      keys: { p256dh: RFC.uaPublic, auth: RFC.auth },
      receiver,
    });
    expect(text).toBe(RFC.plaintext);
  });

  it('a fresh message (its own salt and key) decrypts for its subscription', async () => {
    const subscription = await testSubscription('https://push.example.net/push/abc');
    const body = await encryptPushBody({
      receiverPublic: fromBase64url(subscription.keys.p256dh),
      authSecret: fromBase64url(subscription.keys.auth),
      plaintext: new TextEncoder().encode('{"title":"github.create_issue asks"}'),
    });
    expect(await decryptPushBody(body, subscription)).toBe('{"title":"github.create_issue asks"}');
  });
});

describe('VAPID (RFC 8292)', () => {
  it('signs an ES256 JWT for the push service origin, 12 hours, with the public key as k', async () => {
    const keys = await importVapidKeys(await generateVapidJwk());
    const now = Date.UTC(2026, 11, 7, 8, 0, 0);
    const endpoint = 'https://push.example.net/push/abc?x=1';
    const header = await vapidAuthorization(endpoint, 'https://hub.example', keys, now);
    const claims = await checkVapid(header, endpoint, base64url(keys.publicPoint), now);
    expect(claims).toEqual({
      aud: 'https://push.example.net',
      exp: now / 1000 + 12 * 3600,
      sub: 'https://hub.example',
    });
    const other = await importVapidKeys(await generateVapidJwk());
    await expect(checkVapid(header, endpoint, base64url(other.publicPoint), now)).rejects.toThrow(
      /published/,
    );
    await expect(
      checkVapid(header, endpoint, base64url(keys.publicPoint), now + 13 * 3600_000),
    ).rejects.toThrow(/exp/);
  });

  it('refuses a key that is not a P-256 private JWK', async () => {
    await expect(importVapidKeys({ kty: 'EC', crv: 'P-256', x: 'a', y: 'b' })).rejects.toThrow(
      /a VAPID key is a P-256 private key as JWK/,
    );
  });
});
