import authentication, { MemoryStorage } from '@feathersjs/authentication-client';
import { feathers } from '@feathersjs/feathers';
import rest from '@feathersjs/rest-client';

/** Signs in over REST with the official Feathers client and lists the first industries. */
export async function listOverRest(origin: string, email: string, password: string) {
  const client = feathers();
  client.configure(rest(`${origin}/api`).fetch(fetch));
  client.configure(authentication({ storage: new MemoryStorage() }));

  // The token is kept by the client and sent as `Authorization: Bearer …` on every later call.
  const { user } = await client.authenticate({ strategy: 'local', email, password });

  const page = await client.service('industries').find({
    query: { $limit: 3, $sort: { order: 1 }, $select: ['key', 'name'] },
  });
  return { role: user.role, total: page.total, keys: page.data.map((industry: { key: string }) => industry.key) };
}
