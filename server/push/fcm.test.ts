import { generateKeyPairSync, createVerify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FcmPushProvider, type ServiceAccount } from './fcm.ts';
import { LocalPushProvider } from './local.ts';
import type { PushDelivery } from './provider.ts';

/*
 * The FCM provider against a server of the test's own that answers as FCM's HTTP v1 API and
 * Google's token endpoint do (their documented shapes): the service account's signed assertion
 * is checked with its public key, and each token of the test says how FCM answers it.
 */

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

interface Seen {
  tokenRequests: number;
  sends: { token: string; authorization: string; body: { message: Record<string, unknown> } }[];
  inFlight: number;
  mostInFlight: number;
}

function fcmError(status: number, code: string, errorCode?: string) {
  return {
    status,
    body: {
      error: {
        code: status,
        message: code,
        status: code,
        ...(errorCode
          ? { details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode }] }
          : {}),
      },
    },
  };
}

describe('the FCM push provider', () => {
  let server: Server;
  let base: string;
  let account: ServiceAccount;
  const seen: Seen = { tokenRequests: 0, sends: [], inFlight: 0, mostInFlight: 0 };
  const triesOf = new Map<string, number>();
  let accessTokens = 0;

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
          response.writeHead(status, { 'content-type': 'application/json', ...headers });
          response.end(JSON.stringify(body));
        };
        if (request.url === '/token') {
          seen.tokenRequests += 1;
          const form = new URLSearchParams(text);
          const [header, claims, signature] = (form.get('assertion') ?? '').split('.');
          const valid = createVerify('RSA-SHA256')
            .update(`${header}.${claims}`)
            .verify(publicKey, Buffer.from(signature ?? '', 'base64url'));
          const payload = JSON.parse(Buffer.from(claims ?? '', 'base64url').toString('utf8')) as Record<
            string,
            unknown
          >;
          if (
            !valid ||
            form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' ||
            payload.iss !== account.client_email ||
            payload.scope !== 'https://www.googleapis.com/auth/firebase.messaging' ||
            payload.aud !== `${base}/token`
          )
            return reply(400, { error: 'invalid_grant' });
          accessTokens += 1;
          return reply(200, { access_token: `access-${accessTokens}`, expires_in: 3600, token_type: 'Bearer' });
        }
        if (request.url !== '/v1/projects/tillpoint-apps/messages:send') return reply(404, {});
        const body = JSON.parse(text) as { message: { token: string } };
        const token = body.message.token;
        const authorization = request.headers.authorization ?? '';
        seen.sends.push({ token, authorization, body });
        const tries = (triesOf.get(token) ?? 0) + 1;
        triesOf.set(token, tries);
        seen.inFlight += 1;
        seen.mostInFlight = Math.max(seen.mostInFlight, seen.inFlight);
        setTimeout(() => {
          seen.inFlight -= 1;
          let answer: { status: number; body: unknown; headers?: Record<string, string> };
          if (authorization === 'Bearer access-1' && token.startsWith('expired'))
            answer = fcmError(401, 'UNAUTHENTICATED');
          else if (token.startsWith('gone')) answer = fcmError(404, 'NOT_FOUND', 'UNREGISTERED');
          else if (token.startsWith('other-project')) answer = fcmError(403, 'PERMISSION_DENIED', 'SENDER_ID_MISMATCH');
          else if (token.startsWith('bad')) answer = fcmError(400, 'INVALID_ARGUMENT', 'INVALID_ARGUMENT');
          else if (token.startsWith('busy') && tries === 1)
            answer = { ...fcmError(429, 'RESOURCE_EXHAUSTED', 'QUOTA_EXCEEDED'), headers: { 'retry-after': '0' } };
          else if (token.startsWith('down')) answer = fcmError(503, 'UNAVAILABLE', 'UNAVAILABLE');
          else answer = { status: 200, body: { name: `projects/tillpoint-apps/messages/${token}-${tries}` } };
          reply(answer.status, answer.body, answer.headers);
        }, 5);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    account = {
      project_id: 'tillpoint-apps',
      client_email: 'push@tillpoint-apps.iam.gserviceaccount.com',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      token_uri: `${base}/token`,
    };
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    seen.sends = [];
    seen.mostInFlight = 0;
    seen.tokenRequests = 0;
    triesOf.clear();
  });

  const delivery = (token: string): PushDelivery => ({
    token,
    notification: { title: '新功能', body: '自助點餐機現已推出', data: { message: 'm1' } },
  });

  it('sends each delivery with a signed-for access token, and says how each went', async () => {
    const provider = new FcmPushProvider({ account, endpoint: base, backoffMs: 1 });
    const outcomes = await provider.send(
      ['ok-1', 'gone-1', 'other-project-1', 'bad-1', 'busy-1', 'down-1'].map(delivery),
    );
    expect(outcomes).toEqual([
      { ok: true, providerId: 'projects/tillpoint-apps/messages/ok-1-1' },
      { ok: false, reason: 'unregistered', detail: '404 UNREGISTERED' },
      { ok: false, reason: 'unregistered', detail: '403 SENDER_ID_MISMATCH' },
      { ok: false, reason: 'invalid', detail: '400 INVALID_ARGUMENT' },
      // Told to wait (Retry-After: 0), then sent on the second try.
      { ok: true, providerId: 'projects/tillpoint-apps/messages/busy-1-2' },
      // Unavailable on every one of its four tries.
      { ok: false, reason: 'failed', detail: '503 UNAVAILABLE' },
    ]);
    expect(triesOf.get('down-1')).toBe(4);
    expect(triesOf.get('gone-1')).toBe(1);
    // One access token for the whole send, and the message as FCM's v1 API takes it.
    expect(seen.tokenRequests).toBe(1);
    const sent = seen.sends.find((send) => send.token === 'ok-1');
    expect(sent?.authorization).toMatch(/^Bearer access-\d+$/);
    expect(sent?.body.message).toEqual({
      token: 'ok-1',
      notification: { title: '新功能', body: '自助點餐機現已推出' },
      data: { message: 'm1' },
      android: { priority: 'high' },
      apns: { headers: { 'apns-priority': '10' } },
    });
  });

  it('fetches a new access token once when FCM refuses the one it holds', async () => {
    accessTokens = 0;
    const provider = new FcmPushProvider({ account, endpoint: base });
    expect(await provider.send([delivery('expired-1')])).toEqual([
      { ok: true, providerId: 'projects/tillpoint-apps/messages/expired-1-2' },
    ]);
    expect(seen.tokenRequests).toBe(2);
  });

  it('keeps at most its concurrency of requests in flight', async () => {
    const provider = new FcmPushProvider({ account, endpoint: base, concurrency: 4 });
    const outcomes = await provider.send(Array.from({ length: 40 }, (_, index) => delivery(`ok-many-${index}`)));
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect(seen.mostInFlight).toBeLessThanOrEqual(4);
    expect(seen.mostInFlight).toBeGreaterThan(1);
  });

  it('answers every delivery failed, never throws, when the service account is refused', async () => {
    const provider = new FcmPushProvider({
      account: { ...account, client_email: 'someone-else@example.iam.gserviceaccount.com' },
      endpoint: base,
    });
    const outcomes = await provider.send([delivery('ok-2'), delivery('ok-3')]);
    expect(outcomes).toHaveLength(2);
    for (const outcome of outcomes) expect(outcome).toMatchObject({ ok: false, reason: 'failed' });
    expect(seen.sends).toHaveLength(0);
  });
});

describe('the local push provider', () => {
  it('records each delivery and answers a token marked gone as unregistered', async () => {
    const provider = new LocalPushProvider({ keep: 2 });
    const outcomes = await provider.send([
      { token: 'device-a', notification: { title: 'Hi', body: 'One' } },
      { token: 'unregistered:device-b', notification: { title: 'Hi', body: 'Two' } },
      { token: 'device-c', notification: { title: 'Hi', body: 'Three' } },
      { token: 'device-d', notification: { title: 'Hi', body: 'Four' } },
    ]);
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, false, true, true]);
    expect(outcomes[1]).toMatchObject({ reason: 'unregistered' });
    // The oldest past `keep` are dropped.
    expect(provider.sent.map((push) => push.token)).toEqual(['device-c', 'device-d']);
  });
});
