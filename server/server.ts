import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import express from 'express';
import helmet from 'helmet';
import type { DestinationStream, Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { isPublicSitePath, isPurchasePath } from '../domain/public-pages.ts';
import { createApi, type Api } from './app.ts';
import { checkHealth, type HealthCheck } from './health.ts';
import { accessLogSerializers, createAccessLogger, createLogger } from './logging.ts';
import { unsharedFilesWarning, type Config } from './config.ts';
import { openDatabase, type Database } from './database.ts';
import type { ServerBuild } from 'react-router';
import { cachedPageHits } from './cached-pages.ts';
import { PageCache } from './page-cache.ts';
import { createPageHandler } from './pages.ts';
import { messageAssets } from './message-assets.ts';
import { gatewayCspSources, startPaymentSandbox, webhookPath } from './payments/index.ts';
import type { PaymentSandbox } from './payments/sandbox/sandbox.ts';
import { drainOnClose } from './drain.ts';
import { closeRedis, createRedis } from './redis.ts';
import type { EventSync } from './sync.ts';
import { listen } from './listen.ts';
import { precompressed } from './precompressed.ts';
import { compress } from './compress.ts';

export interface RunningServer {
  url: string;
  port: number;
  api: Api;
  database: Database;
  logger: Logger;
  /** The sandbox payment gateway and its own server, when it is the gateway (not with Stripe). */
  paymentSandbox: { sandbox: PaymentSandbox; url: string } | undefined;
  close(): Promise<void>;
}

/** What the events sync adds to the app (server/sync.ts; Feathers' types do not declare it). */
const sync = (api: Api) => (api as unknown as { sync?: EventSync }).sync;

export interface ServerOptions {
  /** Serve the React Router pages from the production build (when it exists). */
  pages?: boolean;
  buildDir?: string;
  /** An already open database (tests); otherwise one is opened from the config. */
  database?: Database;
  /** Development: pages come from Vite's dev server (hot reload, development build), not from build/. */
  dev?: boolean;
  /** Where log lines go (tests read them); standard output otherwise. */
  logDestination?: DestinationStream;
}

/** Starts the one process: API under /api, socket.io at /api/socket.io, pages for everything else. */
export async function startServer(config: Config, options: ServerOptions = {}): Promise<RunningServer> {
  // In development the lines are printed for a person to read (pino-pretty, a development package only).
  const destination =
    options.logDestination ??
    (options.dev
      ? (await import('pino-pretty')).default({ colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' })
      : undefined);
  const logger = createLogger(config.logLevel, destination);
  const database = options.database ?? (await openDatabase(config, logger));
  // The sandbox gateway's server first: its origin goes into our pages' CSP, and the gateway the
  // services create (server/payments/index.ts) shares it.
  let payments: Awaited<ReturnType<typeof startPaymentSandbox>>;
  try {
    payments = await startPaymentSandbox(config, database.knex, logger);
  } catch (error) {
    if (!options.database) await database.close();
    throw error;
  }
  // Bounded timeouts and no offline queue: nothing waits on a Redis that does not answer (decision 032).
  const redis = config.redisUrl ? createRedis(config.redisUrl, logger, `tillpoint:${config.instanceName}`) : null;
  // Several instances with files in a folder: it must be one they all share.
  const unshared = unsharedFilesWarning(config);
  if (unshared) logger.warn(unshared);
  const api = createApi({ config, knex: database.knex, logger, redis });

  const app = express();
  app.disable('x-powered-by');
  if (config.trustProxy !== undefined) app.set('trust proxy', config.trustProxy);
  // The sandbox's own host name first, before the site's logging and headers: what is posted
  // there is card numbers, and its pages carry headers of their own (PAYMENT_SANDBOX_HOST).
  if (payments?.host) app.use(payments.host.middleware);
  app.use(
    pinoHttp({
      logger: createAccessLogger(logger),
      genReqId: (req, res) => {
        const incoming = req.headers['x-request-id'];
        const id = typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
        res.setHeader('x-request-id', id);
        // Services read it among the request's headers (REST calls, pages' calls): the audit log keeps it.
        req.headers['x-request-id'] = id;
        return id;
      },
      autoLogging: {
        ignore: (req) => req.url === '/health' || req.url === '/health/live' || (req.url ?? '').startsWith('/assets/'),
      },
      // pino-http's default response serializer would log every header, the session's Set-Cookie too.
      serializers: accessLogSerializers,
    }),
  );

  const buildDir = path.resolve(options.buildDir ?? 'build');
  const servePages = !options.dev && options.pages !== false && existsSync(path.join(buildDir, 'server/index.js'));
  if (servePages) {
    // Hashed scripts and styles, before the document headers: a CSP and its companions mean nothing
    // on a script file, yet cost about 1 KB on each of the twenty-odd files of a page over HTTP/1.1.
    const assets = path.join(buildDir, 'client/assets');
    const assetHeaders = {
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Resource-Policy': 'same-origin',
    };
    app.use(
      '/assets',
      // The build's brotli and gzip copies (scripts/compress-assets.ts), else compressed on the fly.
      precompressed(assets, assetHeaders),
      compress(),
      express.static(assets, {
        immutable: true,
        maxAge: '1y',
        // A hashed file never changes under its name, so nothing is ever revalidated: no ETag,
        // Last-Modified or Accept-Ranges, some 100 bytes less on each of a page's scripts.
        etag: false,
        lastModified: false,
        acceptRanges: false,
        index: false,
        redirect: false,
        setHeaders: (res) => {
          res.setHeader('X-Content-Type-Options', 'nosniff');
          res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
        },
      }),
    );
  }

  // The pages' messages (decision 042), before the page headers like /assets.
  app.use('/i18n', messageAssets({ reload: options.dev }));
  // Anonymous visitors' public pages, as stored: a hit needs none of what follows (decision 043).
  const pageCache = servePages ? new PageCache() : undefined;
  if (pageCache) app.use(cachedPageHits(pageCache));

  const isApi = (req: express.Request) => req.path === '/api' || req.path.startsWith('/api/');
  // Pages get a fresh nonce for their inline scripts; API answers (JSON) run no script at all.
  app.use((req, res, next) => {
    if (!isApi(req)) res.locals.cspNonce = randomBytes(16).toString('base64');
    next();
  });
  // Google Tag Manager's hosts are allowed only when a container is configured.
  const tagManager = config.site.gtmId ? ['https://www.googletagmanager.com'] : [];
  const analytics = config.site.gtmId
    ? ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://*.googletagmanager.com']
    : [];
  const hsts = config.publicUrl?.startsWith('https://') ? undefined : false;
  const gateway = gatewayCspSources(config, payments?.sandbox.origin);
  /**
   * Pages' headers. The public site's pages go without a cross-origin opener policy: they hold
   * nothing of a visitor's, and the policy costs every visit a browser process of its own (on
   * Android, where Chrome isolates only the sites that ask, most of all): decision 014. Every other
   * page (an account's, a purchase's, anything outside a language) and the API keep `same-origin`.
   */
  const pageHelmet = (isolated: boolean, purchase = false) =>
    helmet({
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          'default-src': ["'self'"],
          'script-src': [
            "'self'",
            ...tagManager,
            ...(purchase ? gateway.script : []),
            (_req: unknown, res: unknown) => `'nonce-${(res as express.Response).locals.cspNonce}'`,
          ],
          'style-src': ["'self'", "'unsafe-inline'"],
          'img-src': ["'self'", 'data:', 'blob:', ...analytics],
          // 'self' covers our own ws:/wss: too in every supported browser (WebKit since 2022, Safari 16).
          'connect-src': ["'self'", ...analytics, ...(purchase ? gateway.connect : [])],
          // The purchase pages embed the payment provider's card fields and 3-D Secure page (decision 019).
          'frame-src': purchase ? (gateway.frame.length > 0 ? gateway.frame : ["'none'"]) : null,
          'font-src': ["'self'", 'data:'],
          'object-src': ["'none'"],
          // No page sets a <base>; an injected one would send relative scripts and forms elsewhere.
          'base-uri': ["'none'"],
          'frame-ancestors': ["'self'"],
          'upgrade-insecure-requests': config.publicUrl?.startsWith('https://') ? [] : null,
        },
      },
      crossOriginEmbedderPolicy: false,
      // With helmet's default `no-referrer`, Chromium sends `Origin: null` on form posts and
      // React Router refuses the action as cross-site (400): pages would not work without JavaScript.
      referrerPolicy: { policy: 'same-origin' },
      strictTransportSecurity: hsts,
      crossOriginOpenerPolicy: isolated ? { policy: 'same-origin' } : false,
    });
  const privatePageHeaders = pageHelmet(true);
  const publicPageHeaders = pageHelmet(false);
  const purchasePageHeaders = pageHelmet(true, true);
  const pageHeaders: express.RequestHandler = (req, res, next) =>
    (isPurchasePath(req.path)
      ? purchasePageHeaders
      : isPublicSitePath(req.path)
        ? publicPageHeaders
        : privatePageHeaders)(req, res, next);
  // The API's JSON needs the strictest policy, the same for every answer (no nonce to build).
  const apiHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] },
    },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: hsts,
  });
  app.use((req, res, next) => (isApi(req) ? apiHeaders(req, res, next) : pageHeaders(req, res, next)));
  // Pages are written with backpressure: the wrapper keeps their `drain` listeners right (compress.ts).
  app.use(compress());

  // Each configured part on its own, each with its own timeout (server/health.ts).
  const healthChecks: Record<string, HealthCheck> = {
    database: () => database.knex.raw('select 1'),
    ...(redis ? { redis: () => redis.ping() } : {}),
    jobs: () => api.jobs.check(),
  };
  const downBefore = new Set<string>();
  app.get('/health', async (_req: express.Request, res: express.Response) => {
    const { report, errors } = await checkHealth(config.instanceName, healthChecks);
    // Logged as a part goes down and as it comes back, not at every probe.
    for (const name of Object.keys(healthChecks)) {
      if (name in errors && !downBefore.has(name))
        logger.error({ err: errors[name], part: name }, 'health check: down');
      if (!(name in errors) && downBefore.has(name)) logger.info({ part: name }, 'health check: back');
      if (name in errors) downBefore.add(name);
      else downBefore.delete(name);
    }
    res.setHeader('Cache-Control', 'no-store');
    res
      .status(report.status === 'ok' ? 200 : 503)
      .json({ ...report, database: { ...(report.database as object), kind: database.kind } });
  });
  // Liveness for a load balancer or an orchestrator: the process serves, whatever its parts do.
  app.get('/health/live', (_req: express.Request, res: express.Response) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok', instance: config.instanceName });
  });

  app.use('/api', api as unknown as express.Application);

  const server = http.createServer(app);
  let closeVite: () => Promise<unknown> = async () => undefined;
  if (options.dev) {
    // Imported here only: production never loads Vite. Its hot-reload socket shares our server
    // (Vite's own port would be another origin, which the pages' connect-src does not allow).
    const { createServer } = await import('vite');
    const vite = await createServer({ server: { middlewareMode: true, ws: { server } }, appType: 'custom' });
    closeVite = () => vite.close();
    app.use(vite.middlewares);
    app.use(async (req, res, next) => {
      try {
        const build = (await vite.ssrLoadModule('virtual:react-router/server-build')) as ServerBuild;
        const handler = await createPageHandler({ build, api, config, mode: 'development' });
        handler(req, res, next);
      } catch (error) {
        next(error);
      }
    });
  } else if (servePages) {
    app.use(express.static(path.join(buildDir, 'client'), { maxAge: '1h', index: false, redirect: false }));
    const build = await import(pathToFileURL(path.join(buildDir, 'server/index.js')).href);
    app.use(await createPageHandler({ build, api, config, cache: pageCache }));
  } else {
    app.use((_req, res) => {
      res.status(404).type('text/plain').send('Not found');
    });
  }

  server.requestTimeout = 30_000;
  server.headersTimeout = 20_000;
  // An idle connection is kept longer than a load balancer's or a client's own idle limit (60 s is
  // common): with Node's default of 5 s, a client reusing a connection just as the server closes it
  // gets a reset instead of an answer.
  server.keepAliveTimeout = 65_000;
  await api.setup(server);
  // Which instance answered, behind a load balancer (logs and tests find it by this name), on every
  // answer: socket.io took the server's requests over in `setup` and answers its own (handshakes,
  // its errors) before Express, so the name is set ahead of both. Its websocket upgrades get it
  // from socket.io's own headers events (server/app.ts).
  server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.setHeader('X-Instance', config.instanceName);
  });
  // A close ends each connection with its answer, never between two of its requests (drain.ts).
  const beginDrain = drainOnClose(server);
  // Events published before the subscription is ready would reach only this instance; while Redis
  // is away the instance starts all the same after a short wait (server/sync.ts).
  await sync(api)?.ready;
  await listen(server, { port: config.port, host: config.host, setting: 'PORT' });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  logger.info({ port, database: database.kind, redis: Boolean(redis) }, 'server listening');
  if (payments) {
    const { sandbox } = payments;
    // The pages that embed the sandbox's frame, and where its webhooks go (straight to this process).
    const local = [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
    const publicOrigin = config.publicUrl ? new URL(config.publicUrl).origin : undefined;
    const own = publicOrigin ? (config.env === 'production' ? [publicOrigin] : [publicOrigin, ...local]) : local;
    sandbox.siteOrigins = [...new Set([...own, ...config.payments.sandbox.siteOrigins])];
    sandbox.webhooks.target ??= `http://${host}:${port}${webhookPath('sandbox')}`;
  }

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    api,
    database,
    logger,
    paymentSandbox: payments && { sandbox: payments.sandbox, url: payments.server.url },
    close() {
      closing ??= (async () => {
        // Stop taking connections, let in-flight requests finish, then close sockets and the database.
        beginDrain();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // An answer still busy after 10 s of the drain is cut short. Set before socket.io's close,
        // which waits for the same server.
        const force = setTimeout(() => server.closeAllConnections(), 10_000);
        await new Promise<void>(
          (resolve) =>
            (api as unknown as { io?: { close(cb: () => void): void } }).io?.close(() => resolve()) ?? resolve(),
        );
        await closed;
        clearTimeout(force);
        await api.teardown?.().catch(() => undefined);
        await payments?.server.close().catch(() => undefined);
        const events = sync(api)?.sub;
        if (events) await closeRedis(events);
        if (redis) await closeRedis(redis);
        await closeVite().catch(() => undefined);
        await database.close();
      })();
      return closing;
    },
  };
}
