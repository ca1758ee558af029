import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * The id an app reports a view or click with: the ad's id and its expiry (seconds since 1970, 0
 * when it has none), signed with the app secret, so a report names an ad the server served and
 * stops counting once that ad's window is over (decision 057). `{id}.{expiry}.{signature}`.
 */

function signature(secret: string, adId: string, expiry: number): Buffer {
  return createHmac('sha256', secret).update(`ad-report:${adId}:${expiry}`).digest();
}

export function signAdId(secret: string, adId: string, expiry: Date | null): string {
  const seconds = expiry ? Math.floor(expiry.getTime() / 1000) : 0;
  return `${adId}.${seconds}.${signature(secret, adId, seconds).toString('base64url')}`;
}

/** The ad and expiry a signed id names, when its signature is right; null otherwise. */
export function readSignedAdId(secret: string, signed: unknown): { adId: string; expiry: Date | null } | null {
  if (typeof signed !== 'string' || signed.length > 200) return null;
  const match = /^([A-Za-z0-9_-]{1,64})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(signed);
  if (!match) return null;
  const [, adId, seconds, given] = match as unknown as [string, string, string, string];
  const expected = signature(secret, adId, Number(seconds));
  const sent = Buffer.from(given, 'base64url');
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return null;
  const expiry = Number(seconds) === 0 ? null : new Date(Number(seconds) * 1000);
  return { adId, expiry };
}
