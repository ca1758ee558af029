import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedDatabase, startEmbeddedDatabase } from './embedded.ts';

let db: EmbeddedDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await startEmbeddedDatabase({ maxConnections: 8 });
  pool = new pg.Pool({ connectionString: db.url, max: 8 });
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await db?.stop();
});

/** A frontend protocol message: a type byte, then its length and body. */
function message(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

function startup(): Buffer {
  const body = Buffer.concat([
    Buffer.from([0, 3, 0, 0]),
    Buffer.from('user\0postgres\0database\0postgres\0\0', 'latin1'),
  ]);
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([length, body]);
}

describe('the embedded database shared by several connections', () => {
  it('answers each of many concurrent parameterised queries with its own rows, even when a batch arrives in pieces', async () => {
    // 200 KB parameters make each Parse/Bind/Execute/Sync batch reach the server in several reads.
    const answers = await Promise.all(
      Array.from({ length: 120 }, async (_, i) => {
        if (i % 2) {
          const { rows } = await pool.query<{ a: number }>('select $1::int as a', [i]);
          return rows[0]?.a === i;
        }
        const big = `${'x'.repeat(200_000)}${i}`;
        const { rows } = await pool.query<{ size: number; n: number }>(
          'select length($1::text) as size, $2::int as n',
          [big, i],
        );
        return rows[0]?.size === big.length && rows[0]?.n === i;
      }),
    );
    expect(answers.filter((ok) => !ok)).toHaveLength(0);
  }, 120_000);

  it('stays usable when a connection closes halfway through a batch', async () => {
    const socket = net.connect(Number(new URL(db.url).port), '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const ready = new Promise<void>((resolve) =>
      socket.on('data', (data) => data.includes(Buffer.from('Z')) && resolve()),
    );
    socket.write(startup());
    await ready;
    // Parse and Bind of an unnamed statement, with no Sync: the batch stays open.
    socket.write(message('P', Buffer.from('\0select 1\0\0\0', 'latin1')));
    socket.write(message('B', Buffer.from([0, 0, 0, 0, 0, 0, 0, 0])));
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();

    const { rows } = await pool.query<{ answer: string }>('select $1::text as answer', ['still here']);
    expect(rows[0]?.answer).toBe('still here');
  }, 60_000);
});
