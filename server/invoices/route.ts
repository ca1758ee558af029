import type { AuthenticationRequest, AuthenticationParams } from '@feathersjs/authentication';
import { NotAuthenticated, NotFound } from '@feathersjs/errors';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { CallParams, Caller, ServiceMap } from '../../domain/entities/services.ts';
import { isLocale, type Locale } from '../../domain/locales.ts';
import { isHttpsSite, sessionToken } from '../../domain/session-cookie.ts';
import type { Config } from '../config.ts';
import { invoicePdf } from './pdf.ts';

/** Ids as the server makes them; anything else is no invoice of ours. */
const ID = /^[A-Za-z0-9_-]{1,64}$/;

interface AuthApp {
  defaultAuthentication?: () => { authenticate(data: AuthenticationRequest, params: AuthenticationParams, ...strategies: string[]): Promise<{ user?: unknown }> } | null;
}

type SignedIn = Caller & { locale?: unknown; name?: unknown; email?: unknown };

/** Every refusal of a reachable invoice is the same 404: a malformed id, a missing one and another member's look alike. */
const notFound = () => new NotFound('invoices.notFound');

/**
 * The caller, from a bearer token (the apps) or the session cookie (a link on a portal page). A
 * download only reads, so the cookie is taken from any page that sends it, as the pages themselves
 * take it: a link followed from a bookmark or another tab still works, and another site that links
 * here can only start a download of the visitor's own invoice, which it never sees. The token is
 * checked as any REST call's is (signature, expiry, revocation, the account's session version).
 */
async function callerOf(app: AuthApp, req: Request, secureCookies: boolean): Promise<SignedIn> {
  const header = req.headers.authorization;
  const bearer = typeof header === 'string' && /^Bearer\s+/i.test(header) ? header.replace(/^Bearer\s+/i, '').trim() : undefined;
  const accessToken = bearer || sessionToken(req.headers.cookie, secureCookies);
  const authentication = app.defaultAuthentication?.();
  if (!accessToken || !authentication) throw new NotAuthenticated('auth.notAuthenticated');
  const { user } = await authentication.authenticate({ strategy: 'jwt', accessToken }, { provider: 'rest', headers: req.headers }, 'jwt');
  const signedIn = user as Partial<SignedIn> | undefined;
  if (typeof signedIn?._id !== 'string' || typeof signedIn.role !== 'string') throw new NotAuthenticated('auth.notAuthenticated');
  return signedIn as SignedIn;
}

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
export function invoicePdfRoute(app: AuthApp & ServiceMap, config: Config): express.Router {
  const router = express.Router();
  const secureCookies = isHttpsSite(config.publicUrl);
  router.get('/invoices/:id/pdf', (req: Request, res: Response, next: NextFunction) => {
    (async () => {
      const caller = await callerOf(app, req, secureCookies);
      const id = req.params.id ?? '';
      if (!ID.test(id)) throw notFound();
      // A params object per call: a service's hooks may change the one they are given.
      const asCaller = (): CallParams => ({ provider: 'rest', user: { _id: caller._id, role: caller.role }, headers: req.headers });
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
      req.log?.debug({ invoice: invoice._id, ms: Math.round(performance.now() - started), bytes: pdf.length }, 'invoice pdf');
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
