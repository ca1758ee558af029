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
