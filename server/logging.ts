import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Nothing that lets someone act as a user reaches the log: tokens, cookies, passwords, codes. The
 * access log is built to leave them out (its serializers, `createAccessLogger`); `redact` is the net
 * under every other line.
 */

/** Keys whose values are secrets wherever a logged object holds them (down to two levels). */
const SECRET_KEYS = [
  'password',
  'accessToken',
  'access_token',
  'token',
  'refreshToken',
  'authorization',
  'cookie',
  'set-cookie',
];
const keyPath = (key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`);
const nested = (key: string) => (key.startsWith('[') ? key : `.${key}`);
const REDACTED_PATHS = SECRET_KEYS.map(keyPath).flatMap((key) => [key, `*${nested(key)}`, `*.*${nested(key)}`]);
const REDACTED = '[redacted]';

/** Query parameters whose values are credentials (a token in a link, a one-time code). */
const SECRET_PARAMETER = /token|password|secret|^code$|^jwt$/i;
/** A JWT anywhere in a URL (`DELETE /api/authentication/<token>`). */
const JWT = /eyJ[\w-]*\.[\w-]+\.[\w-]+/g;

const decodedOrRaw = (text: string) => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
};

const hideSecretValue = (pair: string) => {
  const name = pair.split('=', 1)[0] ?? '';
  return SECRET_PARAMETER.test(decodedOrRaw(name)) ? `${name}=${REDACTED}` : pair;
};

/** A request URL fit for the log: the values of credential parameters, and any JWT, replaced. */
export function loggableUrl(url: string): string {
  const mark = url.indexOf('?');
  const query =
    mark === -1
      ? ''
      : `?${url
          .slice(mark + 1)
          .split('&')
          .map(hideSecretValue)
          .join('&')}`;
  return `${mark === -1 ? url : url.slice(0, mark)}${query}`.replace(JWT, REDACTED);
}

/** What an access log line tells of a request and its answer: never a header or a body. */
export const accessLogSerializers = {
  req: (req: { id: unknown; method: string; url: string }) => ({
    id: req.id,
    method: req.method,
    url: loggableUrl(req.url),
  }),
  res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
  // What went wrong and where, never what an error carries besides (a request's data, a config).
  err: (err: { name?: string; message?: string; stack?: string }) => ({
    type: err.name,
    message: err.message,
    stack: err.stack,
  }),
};

/**
 * The process's logger; `destination` is standard output unless a test reads the lines. Standard
 * output is written asynchronously: a line is written at once when no write is under way, and the
 * lines that come during one go together in the next, rather than a system call per line on the
 * request's path (pino flushes what is left when the process exits).
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, base: { pid: process.pid }, redact: { paths: REDACTED_PATHS, censor: REDACTED } };
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false }));
}

/**
 * The access log: the logger's level and output, without `redact`, whose walk of every key path
 * cost a cached page's answer a sixth of its time. Its lines hold only what `accessLogSerializers`
 * keep, none of it a secret; every other line goes through `createLogger`'s.
 */
export function createAccessLogger(logger: Logger): Logger {
  const stream = (logger as unknown as Record<symbol, DestinationStream>)[pino.symbols.streamSym];
  return pino({ level: logger.level, base: { pid: process.pid }, serializers: accessLogSerializers }, stream);
}
