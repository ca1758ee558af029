import { EventEmitter } from 'node:events';
import compression from 'compression';
import type { RequestHandler, Response } from 'express';

type Listener = (...args: unknown[]) => void;

/**
 * `compression()` whose responses keep their `drain` listeners right. The middleware hands every
 * `drain` listener added to the response to its compressing stream, but leaves `removeListener`
 * and `off` on the response, where they find nothing: a writer that waits for `drain` with
 * `once` and takes its listener back (React Router's, on each write the stream cannot take yet)
 * leaves one listener behind on the stream per wait. A large page (the admin's API reference,
 * about a hundred waits) then logs `MaxListenersExceededWarning` and keeps every dead listener
 * until the response ends. Here the response holds its `drain` listeners itself and gives the
 * middleware one listener, added once, that passes the event on: backpressure works as before,
 * and a listener taken back is gone.
 */
export function compress(): RequestHandler {
  const compressing = compression();
  return (req, res, next) => {
    compressing(req, res, (error?: unknown) => {
      if (error !== undefined) {
        next(error);
        return;
      }
      keepDrainListeners(res);
      next();
    });
  };
}

/** The response's `drain` listeners, held beside it; one listener of the middleware's passes the event on. */
export function keepDrainListeners(res: Response): void {
  // The middleware's proxy: to its stream once it compresses, to the response itself otherwise.
  const forward = res.on;
  const removeOther = res.removeListener;
  const drains = new EventEmitter();
  let forwarding = false;
  function on(this: Response, type: string | symbol, listener: Listener): Response {
    if (type !== 'drain') return forward.call(this, type, listener) as Response;
    if (!forwarding) {
      forwarding = true;
      forward.call(this, 'drain', () => drains.emit('drain'));
    }
    drains.on('drain', listener);
    return this;
  }
  function removeListener(this: Response, type: string | symbol, listener: Listener): Response {
    if (type !== 'drain') return removeOther.call(this, type, listener) as Response;
    drains.removeListener('drain', listener);
    return this;
  }
  // `once` adds through `on` and takes its listener back through `removeListener`: both land here.
  res.on = on as Response['on'];
  res.addListener = on as Response['addListener'];
  res.removeListener = removeListener as Response['removeListener'];
  res.off = removeListener as Response['off'];
}
