/**
 * The baseline of `npm run bench:fanout`: a bare socket.io server of the version the product uses,
 * with nothing else. `POST /emit` sends one event to every connected socket. Prints its port.
 */
import http from 'node:http';
import { Server } from 'socket.io';

const server = http.createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/emit') {
    io.emit('industries patched', { _id: 'bare', sentAt: Date.now() });
    res.writeHead(204).end();
    return;
  }
  res.writeHead(404).end();
});
const io = new Server(server, { path: '/api/socket.io', transports: ['websocket'], serveClient: false });
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(typeof address === 'object' && address ? address.port : 0);
});
