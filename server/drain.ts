import type http from 'node:http';

/**
 * Lets an HTTP server that keeps connections alive close without waiting out `keepAliveTimeout`
 * for a connection that was busy when the close began, and without cutting a client off mid-way.
 *
 * Call it once, before the server listens; call the answer when the close begins (before
 * `server.close`). From then on:
 * - an idle connection is closed at once;
 * - an answer not yet begun says `Connection: close`, so its client (a load balancer too) sends its
 *   next request elsewhere, and Node ends the connection with the answer;
 * - a connection whose answer had already begun is ended once the answer is sent.
 * Nothing closes a connection between a client's requests, where a client reusing it would meet a
 * reset.
 */
export function drainOnClose(server: http.Server): () => void {
  let draining = false;
  const unanswered = new Set<http.ServerResponse>();
  server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (draining) {
      res.setHeader('Connection', 'close');
      return;
    }
    unanswered.add(res);
    res.once('close', () => {
      unanswered.delete(res);
      if (draining) req.socket.end();
    });
  });
  return () => {
    if (draining) return;
    draining = true;
    for (const res of unanswered) if (!res.headersSent) res.setHeader('Connection', 'close');
    server.closeIdleConnections();
  };
}
