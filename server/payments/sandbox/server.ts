import { randomBytes } from 'node:crypto';
import http from 'node:http';
import express from 'express';
import { isLocale, type Locale } from '../../../domain/locales.ts';
import { GatewayError } from '../gateway.ts';
import { challengePage, framePage } from './pages.ts';
import { CardInputError, type PaymentSandbox, type SandboxFaults } from './sandbox.ts';
import { listen } from '../../listen.ts';

export interface SandboxServer {
  /** The origin it listens on (its public origin may differ: PAYMENT_SANDBOX_URL). */
  url: string;
  port: number;
  close(): Promise<void>;
}

const STATUS: Record<GatewayError['code'], number> = {
  invalid_request: 400,
  idempotency_conflict: 409,
  bad_signature: 400,
  timeout: 504,
  unavailable: 500,
};

/**
 * The sandbox's own origin: the card frame (`/frame`), the 3-D Secure page (`/challenge/:id`),
 * the tokenising API the frame calls (`/v1/payment_methods`) and, outside production, the fault
 * switches (`/v1/test/...`, with the webhook secret as a bearer token).
 */
export function sandboxApp(sandbox: PaymentSandbox): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // No request logging: the bodies posted here are card numbers (only method, path and status would be safe).
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    next();
  });
  const json = express.json({ limit: '4kb' });

  /** Our site's origin that embeds a page: the one asked for when it is one of ours, else the first. */
  const parentOf = (req: express.Request): string | undefined => {
    const asked = typeof req.query.parent === 'string' ? req.query.parent : undefined;
    return asked ? sandbox.siteOrigins.find((origin) => origin === asked) : sandbox.siteOrigins[0];
  };
  const localeOf = (req: express.Request): Locale => (isLocale(req.query.locale) ? req.query.locale : 'en');
  const sendPage = (res: express.Response, parent: string, nonce: string, html: string) => {
    res.setHeader(
      'Content-Security-Policy',
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors ${parent}`,
    );
    res.type('html').send(html);
  };

  app.get('/health', (_req: express.Request, res: express.Response) => {
    res.json({ status: 'ok' });
  });

  app.get('/frame', (req: express.Request, res: express.Response) => {
    const parent = parentOf(req);
    if (!parent) return void res.status(400).type('text/plain').send('unknown parent origin');
    const nonce = randomBytes(16).toString('base64');
    sendPage(res, parent, nonce, framePage({ locale: localeOf(req), nonce, parentOrigin: parent }));
  });

  app.get('/challenge/:id', async (req: express.Request, res: express.Response, next: express.NextFunction) => {
    try {
      const parent = parentOf(req);
      if (!parent) return void res.status(400).type('text/plain').send('unknown parent origin');
      const charge = await sandbox.challengeOf(String(req.params.id));
      const waiting = charge?.status === 'requires_action' ? charge : undefined;
      // Back only to one of our own pages: a return URL elsewhere would make the sandbox an open redirect.
      const returnUrl =
        waiting?.returnUrl &&
        URL.canParse(waiting.returnUrl) &&
        sandbox.siteOrigins.includes(new URL(waiting.returnUrl).origin)
          ? waiting.returnUrl
          : null;
      const nonce = randomBytes(16).toString('base64');
      res.status(waiting ? 200 : 404);
      sendPage(
        res,
        parent,
        nonce,
        challengePage({
          locale: localeOf(req),
          nonce,
          parentOrigin: parent,
          chargeId: String(req.params.id),
          charge: waiting && { ...waiting, returnUrl },
        }),
      );
    } catch (error) {
      next(error);
    }
  });

  app.post('/challenge/:id', json, async (req: express.Request, res: express.Response, next: express.NextFunction) => {
    try {
      const outcome = (req.body as { outcome?: unknown } | undefined)?.outcome;
      if (outcome !== 'approve' && outcome !== 'fail')
        return void res
          .status(400)
          .json({ error: { code: 'invalid_request', message: 'outcome must be approve or fail' } });
      const charge = await sandbox.completeChallenge(String(req.params.id), outcome);
      res.json({ id: charge.id, status: charge.status });
    } catch (error) {
      next(error);
    }
  });

  app.post(
    '/v1/payment_methods',
    json,
    async (req: express.Request, res: express.Response, next: express.NextFunction) => {
      try {
        // Only the sandbox's own frame posts here (a browser adds Origin to every POST).
        const origin = req.headers.origin;
        if (origin !== undefined && origin !== sandbox.origin)
          return void res
            .status(403)
            .json({ error: { code: 'forbidden', message: 'cards are posted from the sandbox frame only' } });
        const body = (req.body ?? {}) as Record<string, unknown>;
        const input = {
          number: typeof body.number === 'string' ? body.number.slice(0, 40) : '',
          expMonth: typeof body.expMonth === 'number' ? body.expMonth : Number.NaN,
          expYear: typeof body.expYear === 'number' ? body.expYear : Number.NaN,
          cvc: typeof body.cvc === 'string' ? body.cvc.slice(0, 10) : '',
        };
        res.status(201).json(await sandbox.call(() => sandbox.tokenize(input)));
      } catch (error) {
        if (error instanceof CardInputError)
          return void res.status(400).json({ error: { code: 'invalid_card', problems: error.problems } });
        next(error);
      }
    },
  );

  if (!sandbox.production) {
    const test = express.Router();
    test.use((req: express.Request, res: express.Response, next: express.NextFunction) => {
      if (req.headers.authorization !== `Bearer ${sandbox.webhookSecret}`)
        return void res.status(401).json({ error: { code: 'unauthorized' } });
      next();
    });
    test.get('/faults', (_req: express.Request, res: express.Response) => {
      res.json(sandbox.getFaults());
    });
    test.post('/faults', json, (req: express.Request, res: express.Response) => {
      const body = (req.body ?? {}) as Partial<Record<keyof SandboxFaults, unknown>>;
      const faults: Partial<SandboxFaults> = {};
      if (body.api === 'none' || body.api === 'timeout' || body.api === 'error') faults.api = body.api;
      if (typeof body.count === 'number' && Number.isInteger(body.count) && body.count > 0) faults.count = body.count;
      if (body.webhooks === 'normal' || body.webhooks === 'duplicate' || body.webhooks === 'reorder')
        faults.webhooks = body.webhooks;
      res.json(sandbox.setFaults(faults));
    });
    test.post('/webhooks/release', (_req: express.Request, res: express.Response) => {
      sandbox.webhooks.release();
      res.status(204).end();
    });
    app.use('/v1/test', test);
  }

  app.use((_req: express.Request, res: express.Response) => {
    res.status(404).json({ error: { code: 'not_found' } });
  });
  app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    if (error instanceof GatewayError)
      return void res.status(STATUS[error.code]).json({ error: { code: error.code, message: error.message } });
    const status = (error as { status?: number }).status;
    if (typeof status === 'number' && status >= 400 && status < 500)
      return void res.status(status).json({ error: { code: 'invalid_request' } });
    sandbox.logger.error({ err: error }, 'sandbox gateway error');
    res.status(500).json({ error: { code: 'unavailable' } });
  });
  return app;
}

/** The sandbox served by the site's own server to the requests for its host name (PAYMENT_SANDBOX_HOST). */
export interface SandboxHost {
  /** The host name it answers, lower-case. */
  host: string;
  /** Answers a request for the host name; passes any other on. */
  middleware: express.RequestHandler;
  server: SandboxServer;
}

/**
 * The sandbox on the site's port under a host name of its own: a demo on a host that gives one
 * port still has the card frame on another origin than its pages (a different host is a
 * different origin). `req.hostname` follows TRUST_PROXY, as the site's own addresses do.
 */
export function sandboxOnHost(sandbox: PaymentSandbox, options: { host: string; origin: string }): SandboxHost {
  const app = sandboxApp(sandbox);
  sandbox.origin = options.origin;
  sandbox.logger.info({ host: options.host, origin: options.origin }, 'payment sandbox served on its host name');
  return {
    host: options.host,
    middleware: (req, res, next) => {
      if (req.hostname?.toLowerCase() === options.host) app(req, res, next);
      else next();
    },
    server: {
      url: options.origin,
      port: Number(new URL(options.origin).port) || (options.origin.startsWith('https:') ? 443 : 80),
      async close() {
        sandbox.close();
      },
    },
  };
}

/** Starts the sandbox's server (port 0: any free one) and sets the sandbox's origin unless configured. */
export async function startSandboxServer(
  sandbox: PaymentSandbox,
  options: { port: number; host: string; publicUrl?: string },
): Promise<SandboxServer> {
  const server = http.createServer(sandboxApp(sandbox));
  server.requestTimeout = 30_000;
  await listen(server, {
    port: options.port,
    host: options.host,
    setting: 'PAYMENT_SANDBOX_PORT',
    hint: "the payment sandbox's, PORT+1 unless PAYMENT_SANDBOX_PORT is set",
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host;
  const url = `http://${host}:${port}`;
  sandbox.origin = options.publicUrl ?? url;
  sandbox.logger.info({ port, origin: sandbox.origin }, 'payment sandbox listening');
  return {
    url,
    port,
    async close() {
      sandbox.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), 5_000);
      await closed;
      clearTimeout(force);
    },
  };
}
