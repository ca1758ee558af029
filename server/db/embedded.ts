import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedDatabase {
  /** A postgres:// URL the ordinary `pg` driver connects to. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts PGlite (a real PostgreSQL build, in-process) behind a socket on 127.0.0.1 so the same
 * `pg` driver and Knex code run on it as on a PostgreSQL server. `dataDir` undefined keeps it in memory.
 */
export async function startEmbeddedDatabase(options: {
  dataDir?: string;
  maxConnections: number;
}): Promise<EmbeddedDatabase> {
  let dir: string | undefined;
  if (options.dataDir) {
    dir = path.join(options.dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
  }
  const db = await PGlite.create(dir);
  const server = new PGLiteSocketServer({
    db,
    host: '127.0.0.1',
    port: 0,
    // The pool must never open more connections than the socket server accepts.
    maxConnections: options.maxConnections + 2,
  });
  await server.start();
  const url = `postgres://postgres@${server.getServerConn()}/postgres`;
  return {
    url,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
