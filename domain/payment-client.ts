/*
 * What the pages know of the payment provider: which one the server uses, and what the browser
 * needs to show its card fields. The server's gateways answer it (server/payments/gateway.ts); the
 * purchase pages read it from their context. It never holds a secret.
 */

export type GatewayName = 'sandbox' | 'stripe';

/** What the browser needs to show the provider's card fields (never a secret key). */
export interface ClientConfig {
  provider: GatewayName;
  /** The sandbox's own origin, which serves its card frame and challenge pages. */
  origin?: string;
  /** Stripe's publishable key. */
  publishableKey?: string;
}
