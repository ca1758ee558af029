import { PassThrough, pipeline } from 'node:stream';
import { createReadableStreamFromReadable } from '@react-router/node';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import {
  type EntryContext,
  type HandleErrorFunction,
  isRouteErrorResponse,
  type RouterContextProvider,
  ServerRouter,
} from 'react-router';
import { DATABASE_RETRY_AFTER } from '../server/db/unavailable';
import { serverContext } from './context';
import { resolveMessagesOnServer } from './i18n/messages';
import { resolveMessagesRef } from './i18n/messages.server';
import { scriptsAfterLoad } from './scripts-after-load.server';
import { NonceProvider } from './nonce';

// The server reads the context key from the build, so both sides use the same instance.
export { serverContext };

export const streamTimeout = 5_000;

// Pages name their messages by file (decision 042); the server renders them from its own table.
resolveMessagesOnServer(resolveMessagesRef);

/**
 * A loader, action or render that fails is logged with the request's id and path; aborted
 * requests (the visitor went away) and expected answers such as a 404 are not errors.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  // React Router wraps an error thrown while rendering in a response that keeps it as `error`.
  const wrapped = isRouteErrorResponse(error) ? (error as { error?: unknown }).error : undefined;
  const cause = wrapped ?? error;
  const details = { err: cause, method: request.method, url: new URL(request.url).pathname };
  let log: { error(details: Record<string, unknown>, message: string): void } | undefined;
  try {
    log = (context as RouterContextProvider).get(serverContext).log;
  } catch {
    log = undefined;
  }
  if (log) log.error(details, 'page request failed');
  else console.error(cause);
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // A page that could not be rendered because the database is away says when to try again.
  if (responseStatusCode === 503 && !responseHeaders.has('Retry-After'))
    responseHeaders.set('Retry-After', String(DATABASE_RETRY_AFTER));
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.get(serverContext).nonce;
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get('user-agent');
    const readyOption = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady';
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          pipe(body);
          const page = scriptsAfterLoad();
          // An aborted render ends the response with its error, as it would without this step.
          pipeline(body, page, () => {});
          resolve(
            new Response(createReadableStreamFromReadable(page), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
