import { createSign } from 'node:crypto';
import { mapLimited, type PushDelivery, type PushOutcome, type PushProvider } from './provider.ts';

/*
 * Firebase Cloud Messaging's HTTP v1 API (issue 33). One request per device (v1 has no batch
 * endpoint), at most `concurrency` at a time, with an OAuth 2.0 access token that the project's
 * service account signs for itself (the JWT bearer grant, RS256: node's own crypto, no SDK). FCM's
 * answers per token: UNREGISTERED (and SENDER_ID_MISMATCH: the token is another project's) mean the
 * app is gone from the device; INVALID_ARGUMENT a token or message FCM refuses; QUOTA_EXCEEDED,
 * UNAVAILABLE and INTERNAL are passing, retried after their `Retry-After` or a growing pause; an
 * expired access token is fetched again once.
 */

/** The fields of a Firebase service account key (the JSON file the console gives) that are used. */
export interface ServiceAccount {
  project_id: string;
  client_email: string;
  private_key: string;
  token_uri?: string;
}

export interface FcmOptions {
  account: ServiceAccount;
  /** FCM's address; a test's own server in tests. */
  endpoint?: string;
  /** Requests in flight at once. */
  concurrency?: number;
  /** Tries of one delivery that fails for a passing reason, the first included. */
  attempts?: number;
  /** The first pause between tries when FCM names none, doubled each time (milliseconds). */
  backoffMs?: number;
  /** The longest pause honoured from a `Retry-After` (milliseconds). */
  maxWaitMs?: number;
  fetch?: typeof fetch;
}

const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';
const PASSING = new Set(['QUOTA_EXCEEDED', 'UNAVAILABLE', 'INTERNAL']);

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** The service account's signed request for an access token (RFC 7523). */
export function signedAssertion(account: ServiceAccount, now = Date.now()): string {
  const issuedAt = Math.floor(now / 1000);
  const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const claims = base64url(
    JSON.stringify({
      iss: account.client_email,
      scope: SCOPE,
      aud: account.token_uri ?? GOOGLE_TOKEN_URI,
      iat: issuedAt,
      exp: issuedAt + 3600,
    }),
  );
  const signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(account.private_key);
  return `${header}.${claims}.${base64url(signature)}`;
}

/** The error code FCM gives in an error answer's details, else its status. */
function errorCode(body: unknown): string {
  const error = (body as { error?: { status?: string; details?: { errorCode?: string }[] } } | null)?.error;
  return error?.details?.find((detail) => typeof detail.errorCode === 'string')?.errorCode ?? error?.status ?? '';
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class FcmPushProvider implements PushProvider {
  readonly name = 'fcm';
  private readonly options: Required<Omit<FcmOptions, 'fetch'>> & { fetch: typeof fetch };
  private token: { value: string; expiresAt: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(options: FcmOptions) {
    this.options = {
      endpoint: 'https://fcm.googleapis.com',
      concurrency: 50,
      attempts: 4,
      backoffMs: 500,
      maxWaitMs: 30_000,
      fetch: globalThis.fetch.bind(globalThis),
      ...options,
    };
  }

  /** A current access token: the one held until a minute before it expires, else a new one (one request at a time). */
  private async accessToken(renew = false): Promise<string> {
    if (!renew && this.token && this.token.expiresAt - 60_000 > Date.now()) return this.token.value;
    this.pending ??= (async () => {
      const { account } = this.options;
      const response = await this.options.fetch(account.token_uri ?? GOOGLE_TOKEN_URI, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
          assertion: signedAssertion(account),
        }),
      });
      const body = (await response.json().catch(() => null)) as { access_token?: string; expires_in?: number } | null;
      if (!response.ok || !body?.access_token)
        throw new Error(`FCM access token refused (${response.status}): check the service account`);
      this.token = { value: body.access_token, expiresAt: Date.now() + (body.expires_in ?? 3600) * 1000 };
      return body.access_token;
    })().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  async send(deliveries: readonly PushDelivery[]): Promise<PushOutcome[]> {
    return mapLimited(deliveries, this.options.concurrency, (delivery) =>
      this.sendOne(delivery).catch((error: unknown): PushOutcome => ({
        ok: false,
        reason: 'failed',
        detail: error instanceof Error ? error.message : String(error),
      })),
    );
  }

  private async sendOne(delivery: PushDelivery): Promise<PushOutcome> {
    const { account, endpoint, attempts, backoffMs, maxWaitMs } = this.options;
    const url = `${endpoint}/v1/projects/${encodeURIComponent(account.project_id)}/messages:send`;
    const { title, body, data } = delivery.notification;
    const message = {
      message: {
        token: delivery.token,
        notification: { title, body },
        ...(data ? { data } : {}),
        android: { priority: 'high' },
        apns: { headers: { 'apns-priority': '10' } },
      },
    };
    let renewed = false;
    let lastDetail = '';
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      const response = await this.options.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${await this.accessToken()}` },
        body: JSON.stringify(message),
      });
      const answer = (await response.json().catch(() => null)) as { name?: string } | null;
      if (response.ok && answer?.name) return { ok: true, providerId: answer.name };
      const code = errorCode(answer);
      lastDetail = `${response.status} ${code}`.trim();
      if (code === 'UNREGISTERED' || code === 'SENDER_ID_MISMATCH')
        return { ok: false, reason: 'unregistered', detail: lastDetail };
      if (response.status === 401 && !renewed) {
        // The access token expired or was revoked: one new one, and the same try again.
        renewed = true;
        await this.accessToken(true);
        attempt -= 1;
        continue;
      }
      if (code === 'INVALID_ARGUMENT' || response.status === 400)
        return { ok: false, reason: 'invalid', detail: lastDetail };
      if (!PASSING.has(code) && response.status !== 429 && response.status < 500)
        return { ok: false, reason: 'failed', detail: lastDetail };
      if (attempt < attempts) {
        const header = response.headers.get('retry-after');
        const retryAfter = header === null ? Number.NaN : Number(header);
        const wait =
          Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter * 1000 : backoffMs * 2 ** (attempt - 1);
        await pause(Math.min(wait, maxWaitMs));
      }
    }
    return { ok: false, reason: 'failed', detail: lastDetail };
  }
}
