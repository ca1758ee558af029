import { BadRequest, NotFound } from '@feathersjs/errors';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { GatewayError, type GatewayEvent } from '../../payments/gateway.ts';
import { paymentsOf } from './payments.ts';

/** The largest webhook body taken (Stripe's events are a few kilobytes). */
export const WEBHOOK_BODY_LIMIT = '256kb';

/**
 * `POST /api/paymentWebhooks/:gateway`: a provider's signed event. Mounted before the API's JSON
 * parser, so the signature is checked over the bytes as sent. 200 for an event applied, repeated,
 * late or of a kind we do not act on (the provider stops resending it); 400 for a bad signature or
 * a body that is not an event; 404 for a gateway not in use; 500 when applying failed (the
 * provider sends it again: nothing was kept of it).
 */
export function paymentWebhookRoute(app: { get(name: string): unknown }, logger: Logger): express.Router {
  const router = express.Router();
  router.post(
    '/paymentWebhooks/:gateway',
    express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }),
    async (req: Request, res: Response, next: NextFunction) => {
      try {
        const payments = paymentsOf(app);
        const { gateway } = payments;
        if (req.params.gateway !== gateway.name) return next(new NotFound('errors.noEndpoint'));
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        let event: GatewayEvent | null;
        try {
          event = gateway.parseWebhook(raw, req.headers);
        } catch (error) {
          if (error instanceof GatewayError && (error.code === 'bad_signature' || error.code === 'invalid_request')) {
            logger.warn({ gateway: gateway.name, code: error.code }, 'payment webhook refused');
            return next(new BadRequest(error.code === 'bad_signature' ? 'invalid signature' : 'not an event'));
          }
          throw error;
        }
        if (!event) return void res.status(200).json({ received: true, outcome: 'ignored' });
        const outcome = await payments.receive(event);
        logger.info(
          { gateway: gateway.name, event: event.id, type: event.type, charge: event.chargeId, outcome },
          'payment webhook',
        );
        res.status(200).json({ received: true, outcome });
      } catch (error) {
        logger.error({ err: error }, 'payment webhook not applied');
        next(error);
      }
    },
  );
  return router;
}
