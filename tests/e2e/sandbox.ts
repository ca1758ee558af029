import type { APIRequestContext } from '@playwright/test';
import { SANDBOX_SIGNATURE_HEADER, signPayload } from '../../server/payments/sandbox/signature.ts';

/**
 * The sandbox gateway's webhook secret in the end-to-end server (web-server.ts sets it), so a test
 * can send a webhook as the gateway would: a replay of an event that was already delivered.
 */
export const E2E_WEBHOOK_SECRET = 'e2e-sandbox-webhook-secret-0123456789abcdef';

/** Posts an event to the site's sandbox webhook receiver, signed now; answers status and body. */
export async function sendSandboxWebhook(
  request: APIRequestContext,
  event: Record<string, unknown>,
): Promise<{ status: number; body: unknown }> {
  const payload = JSON.stringify(event);
  const response = await request.post('/api/paymentWebhooks/sandbox', {
    data: payload,
    headers: {
      'content-type': 'application/json',
      [SANDBOX_SIGNATURE_HEADER]: signPayload(payload, E2E_WEBHOOK_SECRET),
    },
  });
  return { status: response.status(), body: await response.json().catch(() => null) };
}
