import type { PushDelivery, PushOutcome, PushProvider } from './provider.ts';

/** A delivery as the local provider recorded it. */
export interface RecordedPush extends PushDelivery {
  providerId: string;
  at: Date;
}

/**
 * The provider of a server without Firebase (development, tests, a demo): it sends nothing and
 * records each delivery, which tests and the development log read. A token the apps' simulator
 * marks as gone (`unregistered:` before it) is answered as FCM answers an uninstalled app, so the
 * whole path, turning the device's push off included, runs without the network.
 */
export class LocalPushProvider implements PushProvider {
  readonly name = 'local';
  readonly sent: RecordedPush[] = [];
  private counter = 0;
  private readonly keep: number;

  /** `keep`: how many recorded deliveries are kept (the oldest are dropped past it). */
  constructor(options: { keep?: number } = {}) {
    this.keep = options.keep ?? 10_000;
  }

  async send(deliveries: readonly PushDelivery[]): Promise<PushOutcome[]> {
    const at = new Date();
    return deliveries.map((delivery) => {
      if (delivery.token.startsWith('unregistered:'))
        return { ok: false, reason: 'unregistered', detail: 'The app is no longer installed on this device.' };
      this.counter += 1;
      const providerId = `local:${this.counter}`;
      this.sent.push({ ...delivery, providerId, at });
      if (this.sent.length > this.keep) this.sent.splice(0, this.sent.length - this.keep);
      return { ok: true, providerId };
    });
  }
}
