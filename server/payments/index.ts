import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { PaymentGateway } from './gateway.ts';
import { SandboxGateway } from './sandbox/adapter.ts';
import { PaymentSandbox } from './sandbox/sandbox.ts';
import { sandboxOnHost, startSandboxServer, type SandboxHost, type SandboxServer } from './sandbox/server.ts';
import { StripeGateway } from './stripe/adapter.ts';

export type { PaymentGateway } from './gateway.ts';

/** Where our server receives a gateway's webhooks. */
export const webhookPath = (gateway: PaymentGateway['name']) => `/api/paymentWebhooks/${gateway}`;

/**
 * One sandbox per database handle, so the gateway a service creates and the sandbox's server
 * (started with the app) share their fault switches, origin and webhook target.
 */
const sandboxes = new WeakMap<Knex, PaymentSandbox>();

export function sandboxFor(config: Config, knex: Knex, logger: Logger): PaymentSandbox {
  let sandbox = sandboxes.get(knex);
  if (!sandbox) {
    const { port, url, webhookSecret } = config.payments.sandbox;
    sandbox = new PaymentSandbox({
      knex,
      logger: logger.child({ component: 'payment-sandbox' }),
      webhookSecret,
      origin: url ?? `http://localhost:${port}`,
      production: config.env === 'production',
    });
    sandboxes.set(knex, sandbox);
  }
  return sandbox;
}

/** The gateway the configuration names: Stripe when its keys are set (never in tests), else the sandbox. */
export function createGateway(config: Config, knex: Knex, logger: Logger): PaymentGateway {
  const { stripe } = config.payments;
  if (config.payments.provider === 'stripe' && stripe) return new StripeGateway(stripe);
  return new SandboxGateway(sandboxFor(config, knex, logger));
}

/** The sandbox's server, started with the app when the sandbox is the gateway (undefined with Stripe). */
export async function startPaymentSandbox(
  config: Config,
  knex: Knex,
  logger: Logger,
): Promise<{ sandbox: PaymentSandbox; server: SandboxServer; host?: SandboxHost } | undefined> {
  if (config.payments.provider !== 'sandbox') return undefined;
  const sandbox = sandboxFor(config, knex, logger);
  const { host, url } = config.payments.sandbox;
  if (host && url) {
    // Served by the site's own server under its own host name: no port of its own (server.ts).
    const served = sandboxOnHost(sandbox, { host, origin: url });
    return { sandbox, server: served.server, host: served };
  }
  const server = await startSandboxServer(sandbox, {
    port: config.payments.sandbox.port,
    host: config.host,
    publicUrl: config.payments.sandbox.url,
  });
  return { sandbox, server };
}

/** What our pages' CSP must allow for the gateway's card fields (decision 019). */
export function gatewayCspSources(
  config: Config,
  sandboxOrigin: string | undefined,
): { script: string[]; frame: string[]; connect: string[] } {
  if (config.payments.provider === 'stripe') {
    return {
      script: ['https://js.stripe.com'],
      frame: ['https://js.stripe.com', 'https://hooks.stripe.com'],
      connect: ['https://api.stripe.com'],
    };
  }
  return { script: [], frame: sandboxOrigin ? [sandboxOrigin] : [], connect: [] };
}
