import http from 'node:http';
import net from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, sandboxFor } from '../../server/payments/index.ts';
import { SandboxGateway } from '../../server/payments/sandbox/adapter.ts';
import { StripeGateway } from '../../server/payments/stripe/adapter.ts';
import type { RunningServer } from '../../server/server.ts';
import { skipReason, startTestServer, testConfig } from './harness.ts';

/** The sandbox gateway's server starts and stops with ours; our purchase pages may frame it, and only they. */
describe.skipIf(skipReason)('the payment gateway in the running server', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('starts the sandbox on a port of its own, another origin than ours', async () => {
    const sandbox = server.paymentSandbox;
    if (!sandbox) throw new Error('no sandbox');
    expect(new URL(sandbox.url).port).not.toBe(String(server.port));
    expect(await (await fetch(`${sandbox.url}/health`)).json()).toEqual({ status: 'ok' });
    expect(sandbox.sandbox.siteOrigins).toContain(`http://127.0.0.1:${server.port}`);
    expect(sandbox.sandbox.webhooks.target).toBe(`${server.url}/api/paymentWebhooks/sandbox`);
    const frame = await fetch(`${sandbox.url}/frame?parent=${encodeURIComponent(`http://localhost:${server.port}`)}`);
    expect(frame.headers.get('content-security-policy')).toContain(`frame-ancestors http://localhost:${server.port}`);
  });

  it('hands services a gateway on that same sandbox', () => {
    const gateway = createGateway(testConfig(), server.database.knex, server.logger);
    expect(gateway).toBeInstanceOf(SandboxGateway);
    expect((gateway as SandboxGateway).sandbox).toBe(server.paymentSandbox?.sandbox);
    expect(gateway.clientConfig()).toEqual({ provider: 'sandbox', origin: server.paymentSandbox?.sandbox.origin });
  });

  it('lets the purchase pages frame the sandbox, and no other page', async () => {
    const origin = server.paymentSandbox?.sandbox.origin ?? '';
    for (const path of ['/en/subscription', '/zh-hk/upgrade/plan', '/en/subscription.data']) {
      const csp = (await fetch(`${server.url}${path}`)).headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain(`frame-src ${origin}`);
    }
    for (const path of ['/en/pricing', '/en/portal', '/en/done/1', '/api/industries']) {
      const csp = (await fetch(`${server.url}${path}`)).headers.get('content-security-policy') ?? '';
      expect(csp, path).not.toContain(origin);
    }
  });

  it('stops the sandbox with the server', async () => {
    const other = await startTestServer();
    const url = other.paymentSandbox?.url ?? '';
    await other.close();
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  });
});

/** A port free at this moment (the sandbox's address on its host name is made from it). */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A request to our server as a browser sends it for `host` (which need not resolve here). */
function requestAs(
  port: number,
  host: string,
  path: string,
  options: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: { host: `${host}:${port}`, ...options.headers },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

describe.skipIf(skipReason)('the sandbox on a host name of its own (PAYMENT_SANDBOX_HOST)', () => {
  let server: RunningServer;
  let port: number;
  const HOST = 'sandbox-pay.localhost';

  beforeAll(async () => {
    port = await freePort();
    const base = testConfig({ instanceName: 'site-and-sandbox' });
    server = await startTestServer({
      instanceName: 'site-and-sandbox',
      port,
      payments: { ...base.payments, sandbox: { ...base.payments.sandbox, host: HOST, url: `http://${HOST}:${port}` } },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('listens on no port of its own: the site answers for both, by the host name asked for', async () => {
    const sandbox = server.paymentSandbox;
    if (!sandbox) throw new Error('no sandbox');
    expect(sandbox.sandbox.origin).toBe(`http://${HOST}:${port}`);
    expect(sandbox.url).toBe(`http://${HOST}:${port}`);
    // The sandbox's own answer, not the site's: its health, its 404 and none of the site's headers.
    const health = await requestAs(port, HOST, '/health');
    expect(JSON.parse(health.body)).toEqual({ status: 'ok' });
    // Past the site's access log (what is posted there is card numbers), which names each request it logs.
    expect(health.headers['x-request-id']).toBeUndefined();
    expect(health.headers['cache-control']).toBe('no-store');
    const api = await requestAs(port, HOST, '/api/industries');
    expect(api.status).toBe(404);
    expect(JSON.parse(api.body)).toEqual({ error: { code: 'not_found' } });
    // The name is matched whatever its case, as browsers send it lower-case anyway.
    expect((await requestAs(port, 'SANDBOX-PAY.localhost', '/health')).status).toBe(200);
    // The site itself, on its own names, is untouched.
    const site = await requestAs(port, '127.0.0.1', '/api/industries');
    expect(site.status).toBe(200);
    expect(site.headers['x-request-id']).toBeDefined();
    expect((await requestAs(port, 'localhost', '/health')).headers['x-instance']).toBe('site-and-sandbox');
  });

  it('frames only our pages, and takes a card on its own origin', async () => {
    const parent = `http://localhost:${port}`;
    const frame = await requestAs(port, HOST, `/frame?parent=${encodeURIComponent(parent)}`);
    expect(frame.status).toBe(200);
    expect(frame.headers['content-security-policy']).toContain(`frame-ancestors ${parent}`);
    const tokenized = await requestAs(port, HOST, '/v1/payment_methods', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: `http://${HOST}:${port}` },
      body: JSON.stringify({ number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '739' }),
    });
    expect(tokenized.status).toBe(201);
    expect(JSON.parse(tokenized.body)).toMatchObject({ card: { brand: 'visa', last4: '4242' } });
    // Our purchase pages may frame it, by the origin of its host name.
    const csp = (await requestAs(port, '127.0.0.1', '/en/subscription')).headers['content-security-policy'] ?? '';
    expect(csp).toContain(`frame-src http://${HOST}:${port}`);
  });
});

describe('choosing the gateway', () => {
  const stripe = { secretKey: 'sk_test_x', publishableKey: 'pk_test_x', webhookSecret: 'whsec_x' };
  it('uses Stripe when its keys are configured, the sandbox otherwise', () => {
    const config = testConfig();
    const logger = pino({ level: 'silent' });
    // A handle object stands for a database: createGateway keeps one sandbox per handle.
    const knex = {} as Parameters<typeof sandboxFor>[1];
    expect(
      createGateway({ ...config, payments: { ...config.payments, provider: 'stripe', stripe } }, knex, logger),
    ).toBeInstanceOf(StripeGateway);
    expect(createGateway(config, knex, logger)).toBeInstanceOf(SandboxGateway);
    expect(sandboxFor(config, knex, logger)).toBe(sandboxFor(config, knex, logger));
  });
});
