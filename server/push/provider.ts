/*
 * How a push message leaves the server (issue 33): one interface, two providers. Firebase Cloud
 * Messaging's HTTP v1 API when its service account is configured (fcm.ts), and a local provider by
 * default and in tests that records each delivery (local.ts). The send job (durable, once per
 * device) decides what to send; a provider only sends it and says how each one went.
 */

/** What a device shows, in the device's own language. */
export interface PushNotification {
  title: string;
  body: string;
  /** Passed to the app as they are (the message's id, to report receipt and taps). */
  data?: Readonly<Record<string, string>>;
}

export interface PushDelivery {
  /** The device's push token, as the app registered it. */
  token: string;
  notification: PushNotification;
}

/**
 * How one delivery went: sent (with the provider's message id), or not, and why: the token no
 * longer names an installation (`unregistered`: the device's push is turned off), the provider
 * refused the token or the message (`invalid`), or it failed for a passing reason the provider
 * retried without success (`failed`).
 */
export type PushOutcome =
  { ok: true; providerId: string } | { ok: false; reason: 'unregistered' | 'invalid' | 'failed'; detail: string };

export interface PushProvider {
  readonly name: 'fcm' | 'local';
  /** One outcome per delivery, in the same order. Never rejects for one delivery's failure. */
  send(deliveries: readonly PushDelivery[]): Promise<PushOutcome[]>;
}

/** Runs `task` over `items` with at most `limit` running at once; answers the results in order. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
