import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedDatabase {
  /** A postgres:// URL the ordinary `pg` driver connects to. */
  url: string;
  /** A copy of the whole database as it is now, which `loadDataDir` starts another one from. */
  dump(): Promise<Blob>;
  stop(): Promise<void>;
}

/** Frontend message types of the extended query protocol that leave a batch open until Sync. */
const EXTENDED_QUERY = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((letter) => letter.charCodeAt(0)));
const SYNC = 'S'.charCodeAt(0);
const SYNC_MESSAGE = new Uint8Array([SYNC, 0, 0, 0, 4]);

type RawStreamOptions = Parameters<PGlite['execProtocolRawStream']>[1];

/**
 * PGlite is one backend shared by every socket connection. The socket server runs one protocol
 * message at a time and keeps the next messages for the connection that holds a transaction, but
 * not for one in the middle of an extended-query batch (Parse, Bind, Describe, Execute, then Sync):
 * when a batch reaches it in two reads, another connection's Parse could replace the unnamed
 * statement or portal in between, and the first connection would get an error or the other's rows.
 *
 * This view of the database tells the server that a batch still open counts as a transaction, so
 * it serves that connection alone until its Sync. When a connection closes holding the database,
 * the server calls `exec('ROLLBACK')`: the batch is ended first, then any real transaction rolled back.
 */
export class BatchAwareDatabase {
  #batchOpen = false;
  private readonly db: PGlite;

  constructor(db: PGlite) {
    this.db = db;
  }

  get waitReady(): Promise<void> {
    return this.db.waitReady;
  }

  isInTransaction(): boolean {
    return this.#batchOpen || this.db.isInTransaction();
  }

  runExclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.db.runExclusive(fn);
  }

  async execProtocolRawStream(message: Uint8Array, options: RawStreamOptions): Promise<void> {
    const type = message[0] ?? 0;
    try {
      await this.db.execProtocolRawStream(message, options);
    } finally {
      if (EXTENDED_QUERY.has(type)) this.#batchOpen = true;
      else if (type === SYNC) this.#batchOpen = false;
    }
  }

  async exec(sql: string): Promise<unknown> {
    if (this.#batchOpen) {
      this.#batchOpen = false;
      await this.db.execProtocolRaw(SYNC_MESSAGE);
    }
    return this.db.isInTransaction() ? this.db.exec(sql) : [];
  }
}

/**
 * Starts PGlite (a real PostgreSQL build, in-process) behind a socket on 127.0.0.1 so the same
 * `pg` driver and Knex code run on it as on a PostgreSQL server. `dataDir` undefined keeps it in
 * memory; `loadDataDir` starts it from another one's `dump()` (in memory), as a copy of it.
 */
export async function startEmbeddedDatabase(options: {
  dataDir?: string;
  loadDataDir?: Blob;
  maxConnections: number;
}): Promise<EmbeddedDatabase> {
  let dir: string | undefined;
  if (options.dataDir) {
    dir = path.join(options.dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
  }
  // pg_trgm: the trigram indexes that serve free-text search (migration 020), as on a server.
  const db = await PGlite.create(dir, {
    extensions: { pg_trgm },
    ...(options.loadDataDir && !dir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const server = new PGLiteSocketServer({
    db: new BatchAwareDatabase(db) as unknown as PGlite,
    host: '127.0.0.1',
    port: 0,
    // The pool must never open more connections than the socket server accepts.
    maxConnections: options.maxConnections + 2,
  });
  await server.start();
  const url = `postgres://postgres@${server.getServerConn()}/postgres`;
  return {
    url,
    dump: () => db.dumpDataDir('none'),
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
