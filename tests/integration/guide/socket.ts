import authentication, { MemoryStorage } from '@feathersjs/authentication-client';
import { feathers } from '@feathersjs/feathers';
import socketio from '@feathersjs/socketio-client';
import { io } from 'socket.io-client';

/** Signs a socket in with a token and hears the next industry created, as the socket reads it. */
export async function listenOverSocket(origin: string, accessToken: string) {
  const socket = io(origin, { path: '/api/socket.io', transports: ['websocket'] });
  const client = feathers();
  client.configure(socketio(socket));
  client.configure(authentication({ storage: new MemoryStorage() }));

  // A token from `POST /api/authentication` (an app user's from `POST /api/appAuthentication`).
  await client.authenticate({ strategy: 'jwt', accessToken });

  const created = new Promise((resolve) => client.service('industries').once('created', resolve));
  const page = await client.service('industries').find({ query: { $limit: 1 } });
  return { socket, total: page.total, created };
}
