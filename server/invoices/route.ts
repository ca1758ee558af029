import { NotFound } from '@feathersjs/errors';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { CallParams, ServiceMap } from '../../domain/entities/services.ts';
import { isLocale, type Locale } from '../../domain/locales.ts';
import { isHttpsSite } from '../../domain/session-cookie.ts';
import { downloadCaller, type DownloadAuthApp } from '../auth/download-caller.ts';
import type { Config } from '../config.ts';
import { invoicePdf } from './pdf.ts';
import { RECORD_ID } from '../db/ids.ts';

/** Every refusal of a reachable invoice is the same 404: a malformed id, a missing one and another member's look alike. */
const notFound = () => new NotFound('invoices.notFound');

/** The language asked for when it is one of the site's, else the account's own, else English. */
export function pdfLocale(asked: unknown, account: unknown): Locale {
  if (isLocale(asked)) return asked;
  return isLocale(account) ? account : 'en';
}

/** A NotFound from a service is this route's 404; anything else goes on as it is. */
function orNotFound(error: unknown): never {
  throw error instanceof NotFound ? notFound() : error;
}

/**
 * `GET /invoices/:id/pdf?lang=en|zh-hk|zh-cn` (under /api, decision 029): the invoice as a PDF
 * file. The invoice and its order are read through their services as the caller, so the owner
 * rule of the definitions decides, as for `GET /api/invoices/:id`: a member gets their own, staff
 * any, and another member's is a 404. Never stored by a browser or a proxy.
 */
export function invoicePdfRoute(app: DownloadAuthApp & ServiceMap, config: Config): express.Router {
  const router = express.Router();
  const secureCookies = isHttpsSite(config.publicUrl);
  router.get('/invoices/:id/pdf', (req: Request, res: Response, next: NextFunction) => {
    (async () => {
      const caller = await downloadCaller(app, req, secureCookies);
      const id = req.params.id ?? '';
      if (!RECORD_ID.test(id)) throw notFound();
      // A params object per call: a service's hooks may change the one they are given.
      const asCaller = (): CallParams => ({
        provider: 'rest',
        user: { _id: caller._id, role: caller.role },
        headers: req.headers,
      });
      const invoice = await app.service('invoices').get(id, asCaller()).catch(orNotFound);
      const order = await app
        .service('orders')
        .get(invoice.order, asCaller())
        .catch((error: unknown) => (error instanceof NotFound ? null : Promise.reject(error)));
      // Without a billing address (an older payment), the invoice is billed to the account.
      const account = invoice.billingAddress
        ? null
        : await app
            .service('users')
            .get(invoice.user, asCaller())
            .catch((error: unknown) => (error instanceof NotFound ? null : Promise.reject(error)));
      const started = performance.now();
      const pdf = await invoicePdf({
        invoice,
        order: order && { number: order.number, prepaidMonths: order.prepaidMonths },
        account: account && { name: account.name, email: account.email },
        locale: pdfLocale(req.query.lang, caller.locale),
        brand: config.site.brandName,
        contact: { email: config.site.supportEmail, phone: config.site.supportPhone },
      });
      req.log?.debug(
        { invoice: invoice._id, ms: Math.round(performance.now() - started), bytes: pdf.length },
        'invoice pdf',
      );
      // The file's name, written for any language (RFC 6266); Express would guess the type from it: ours is set after.
      res.attachment(`${invoice.number}.pdf`);
      res.setHeader('Content-Type', 'application/pdf');
      res.setHeader('Content-Length', String(pdf.length));
      res.setHeader('Cache-Control', 'private, no-store');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.end(req.method === 'HEAD' ? undefined : pdf);
    })().catch(next);
  });
  return router;
}
