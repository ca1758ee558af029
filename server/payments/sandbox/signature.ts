import { createHmac, timingSafeEqual } from 'node:crypto';
import { GatewayError } from '../gateway.ts';

/** The header the sandbox signs its webhooks in: `t=<unix seconds>,v1=<hex HMAC-SHA256>`, as Stripe's. */
export const SANDBOX_SIGNATURE_HEADER = 'sandbox-signature';
/** How old a signed webhook may be (a replay of an older one is refused), as Stripe's default. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

function hmac(secret: string, timestamp: number, payload: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(payload).digest('hex');
}

export function signPayload(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${hmac(secret, timestamp, payload)}`;
}

/** Throws `GatewayError('bad_signature')` unless one `v1` of the header signs this body at a recent time. */
export function verifySignature(
  payload: Buffer,
  header: string | string[] | undefined,
  secret: string,
  now = Date.now(),
): void {
  if (typeof header !== 'string' || header.length > 1000)
    throw new GatewayError('missing or malformed signature header', 'bad_signature');
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [name, value = ''] = part.trim().split('=', 2);
    if (name === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (name === 'v1' && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === undefined || signatures.length === 0)
    throw new GatewayError('missing or malformed signature header', 'bad_signature');
  if (Math.abs(now / 1000 - timestamp) > SIGNATURE_TOLERANCE_SECONDS)
    throw new GatewayError('signature timestamp outside the tolerance', 'bad_signature');
  const expected = Buffer.from(hmac(secret, timestamp, payload), 'hex');
  const matches = signatures.some((signature) => timingSafeEqual(Buffer.from(signature, 'hex'), expected));
  if (!matches) throw new GatewayError('signature does not match', 'bad_signature');
}
