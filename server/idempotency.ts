import { createHash } from 'node:crypto';
import { BadRequest, Conflict, Unprocessable } from '@feathersjs/errors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { sessionToken } from '../domain/session-cookie.ts';

/*
 * `Idempotency-Key` on the API's writes (issue 20, decision 041). A client that sends a POST with a
 * key and loses the answer sends it again with the same key: the first answer comes back
 * (`Idempotent-Replayed: true`) and nothing is written twice, whichever instance gets the retry.
 * The key is the caller's: the same key from another caller is another request. The same key with
 * another request is refused (422); one still being answered is a 409 to retry shortly. A request
 * that failed leaves no trace, so it may be sent again as it is, or corrected.
 */

/** What a key may be: a UUID, a ULID, or any token of 8 to 128 letters, digits, `-` and `_`. */
export const IDEMPOTENCY_KEY = /^[\w-]{8,128}$/;
/** How long a first answer is kept for its retries. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A request still unanswered after this long was lost with its instance: its key may be taken again. */
export const IDEMPOTENCY_PENDING_MS = 60_000;

/**
 * A key's last write that failed (the database away as the request ended) is tried again this
 * often, until it passes or the key could be taken over anyway: otherwise a request that failed
 * because the database went away would leave its key pending, and its retries would be refused
 * with 409 for a minute after the database returned.
 */
export const IDEMPOTENCY_RETRY_MS = 1_000;

const TABLE = 'idempotency_keys';

/** Runs a write on the keys table; when it fails, again every `IDEMPOTENCY_RETRY_MS` while that can still matter. */
function settle(write: () => PromiseLike<unknown>, logger: Logger): Promise<void> {
  const giveUp = Date.now() + IDEMPOTENCY_PENDING_MS;
  const again = () => {
    Promise.resolve(write()).catch((error: unknown) => {
      if (Date.now() < giveUp) setTimeout(again, IDEMPOTENCY_RETRY_MS).unref();
      else logger.warn({ err: error }, 'an idempotency key was left pending; it is taken over after a minute');
    });
  };
  return Promise.resolve(write()).then(
    () => undefined,
    (error: unknown) => {
      setTimeout(again, IDEMPOTENCY_RETRY_MS).unref();
      throw error;
    },
  );
}
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Who is asking: their bearer token or session cookie, else their address. */
function scopeOf(req: Request): string {
  const authorization = req.get('authorization');
  if (authorization) return sha256(`authorization:${authorization}`);
  const cookie = req.get('cookie');
  const session = sessionToken(cookie, true) ?? sessionToken(cookie, false);
  return sha256(session ? `session:${session}` : `address:${req.ip ?? ''}`);
}

export function idempotentWrites(knex: Knex, logger: Logger): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST') return next();
    const key = req.get('idempotency-key');
    if (key === undefined) return next();
    answer(key).catch(next);

    async function answer(key: string): Promise<void> {
      if (!IDEMPOTENCY_KEY.test(key)) throw new BadRequest('errors.idempotencyKey');
      const scope = scopeOf(req);
      const fingerprint = sha256(JSON.stringify([req.method, req.path, req.body ?? null]));
      const now = new Date();
      // Now and then, the keys of yesterday go.
      if (Math.random() < 0.02) {
        void knex(TABLE)
          .where('created_at', '<', new Date(now.getTime() - IDEMPOTENCY_TTL_MS))
          .delete()
          .catch((error: unknown) => logger.warn({ err: error }, 'old idempotency keys were not removed'));
      }
      const taken = await knex(TABLE)
        .insert({ scope, key, fingerprint, state: 'pending', created_at: now })
        .onConflict(['scope', 'key'])
        .ignore()
        .returning('key');
      if (taken.length === 0) {
        const first = (await knex(TABLE).where({ scope, key }).first()) as
          | { fingerprint: string; state: 'pending' | 'done'; status: number | null; body: unknown; created_at: Date }
          | undefined;
        if (!first) throw new Conflict('errors.idempotencyPending');
        if (first.fingerprint !== fingerprint) throw new Unprocessable('errors.idempotencyMismatch');
        if (first.state === 'done') {
          res.set('Idempotent-Replayed', 'true');
          res.status(first.status ?? 200).json(first.body);
          return;
        }
        const abandoned = now.getTime() - new Date(first.created_at).getTime() > IDEMPOTENCY_PENDING_MS;
        const takenOver = abandoned
          ? await knex(TABLE)
              .where({ scope, key, state: 'pending' })
              .andWhere('created_at', first.created_at)
              .update({ created_at: now })
          : 0;
        if (takenOver === 0) {
          res.set('Retry-After', '1');
          throw new Conflict('errors.idempotencyPending');
        }
      }

      // The answer is kept before it is sent: a client that has it, has it for good.
      const send = res.json.bind(res);
      let answered = false;
      res.json = (body: unknown) => {
        answered = true;
        const ok = res.statusCode >= 200 && res.statusCode < 300;
        const status = res.statusCode;
        const row = () => knex(TABLE).where({ scope, key, state: 'pending' });
        // Not kept now (the database away): kept, or the key freed, as soon as it answers again.
        const kept = settle(
          () => (ok ? row().update({ state: 'done', status, body: JSON.stringify(body ?? null) }) : row().delete()),
          logger,
        );
        void kept.then(
          () => send(body),
          (error: unknown) => {
            logger.warn(
              { err: error },
              'the answer of an idempotent write was not kept; it will be when the database answers',
            );
            send(body);
          },
        );
        return res;
      };
      // Ended without an answer (the client went away first): the key is free again.
      res.on('close', () => {
        if (!answered)
          settle(() => knex(TABLE).where({ scope, key, state: 'pending' }).delete(), logger).catch(() => undefined);
      });
      next();
    }
  };
}
