import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { BadRequest, Gone, NotAuthenticated, TooManyRequests } from '@feathersjs/errors';
import type { Knex } from 'knex';
import { newId } from '../../db/ids.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../clock.ts';

/** The rules of email verification (decision 020). */
export const VERIFICATION_RULES = {
  /** A code and its link work this long after they were sent. */
  ttlMs: 15 * 60_000,
  /** Wrong codes before the code is dead (a new one must be sent). */
  maxAttempts: 5,
  /** The least time between two sends to one account. */
  resendAfterMs: 60_000,
  /** Codes sent again on request, per account, in any hour. */
  resendsPerHour: 5,
} as const;

const HOUR_MS = 60 * 60_000;

/** The durable job that mails a code (server/services/email-verifications/verification-mail-job.ts). */
export const VERIFICATION_MAIL_JOB = 'verification-mail';
export interface VerificationMailJob {
  verification: string;
  /** The code and the link's token, encrypted under the app secret: the job's row never holds them in clear. */
  sealed: string;
}

export type VerificationReason = 'registration' | 'resend' | 'email-change';

/** When the code sent expires, and when another may be asked for. */
export interface VerificationState {
  expiresAt: Date;
  resendAfter: Date;
}

/** What a verification call answers: whether the account is verified now; after a resend, the new code's times. */
export interface VerificationAnswer {
  verified: boolean;
  expiresAt?: Date;
  resendAfter?: Date;
}

interface VerificationRow {
  id: string;
  user_id: string;
  email: string;
  reason: VerificationReason;
  code_hash: string;
  token_hash: string;
  attempts: number;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  replaced_at: Date | null;
}

interface UserRow {
  id: string;
  email: string;
  email_verified_at: Date | null;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Codes that prove an email address: a 6-digit code bound to the account and the address it went
 * to, and a link token; both kept only as HMACs under the app secret. Every step runs in a
 * transaction that holds the account's row, so parallel guesses or resends are counted one by one.
 */
export class Verifications {
  private readonly knex: Knex;
  private readonly jobs: JobQueue;
  private readonly secret: string;
  private readonly sealKey: Buffer;
  private readonly clock: () => Clock;

  constructor(options: { knex: Knex; jobs: JobQueue; secret: string; clock: () => Clock }) {
    this.knex = options.knex;
    this.jobs = options.jobs;
    this.secret = options.secret;
    this.clock = options.clock;
    this.sealKey = createHmac('sha256', options.secret).update('email-verification-seal').digest();
  }

  private now(): Date {
    return this.clock()();
  }

  /** The code's HMAC: the account's id and the address are part of it, so it proves nothing for another. */
  codeHash(userId: string, email: string, code: string): string {
    return createHmac('sha256', this.secret)
      .update(`email-verification-code\0${userId}\0${email}\0${code}`)
      .digest('hex');
  }

  tokenHash(token: string): string {
    return createHmac('sha256', this.secret).update(`email-verification-token\0${token}`).digest('hex');
  }

  /** Encrypts what the mail job needs (AES-256-GCM under a key derived from the app secret). */
  seal(secret: { code: string; token: string }): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(secret), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  unseal(sealed: string): { code: string; token: string } {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.sealKey, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')) as {
      code: string;
      token: string;
    };
  }

  /**
   * Sends a new code to the account's address (inside the caller's transaction, which must hold
   * the account's row): the account's earlier codes stop working, the mail job is queued with it.
   * Call `wake()` once the transaction has committed.
   */
  async start(
    trx: Knex.Transaction,
    user: { _id: string; email: string },
    reason: VerificationReason,
  ): Promise<VerificationState> {
    const now = this.now();
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const token = randomBytes(32).toString('base64url');
    const id = newId();
    await trx('email_verifications')
      .where({ user_id: user._id })
      .whereNull('used_at')
      .whereNull('replaced_at')
      .update({ replaced_at: now });
    const expiresAt = new Date(now.getTime() + VERIFICATION_RULES.ttlMs);
    await trx('email_verifications').insert({
      id,
      user_id: user._id,
      email: user.email,
      reason,
      code_hash: this.codeHash(user._id, user.email, code),
      token_hash: this.tokenHash(token),
      attempts: 0,
      created_at: now,
      expires_at: expiresAt,
    });
    const job: VerificationMailJob = { verification: id, sealed: this.seal({ code, token }) };
    await this.jobs.send(VERIFICATION_MAIL_JOB, job, trx);
    return { expiresAt, resendAfter: new Date(now.getTime() + VERIFICATION_RULES.resendAfterMs) };
  }

  /** Has the mail job look for the codes just committed now rather than at its next poll. */
  wake(): void {
    this.jobs.wake(VERIFICATION_MAIL_JOB);
  }

  private async lockUser(trx: Knex.Transaction, userId: string): Promise<UserRow> {
    const user = (await trx('users').where({ id: userId }).forUpdate().first('id', 'email', 'email_verified_at')) as
      UserRow | undefined;
    if (!user) throw new NotAuthenticated('auth.notAuthenticated');
    return user;
  }

  private openCode(trx: Knex.Transaction, userId: string): Promise<VerificationRow | undefined> {
    return trx('email_verifications')
      .where({ user_id: userId })
      .whereNull('used_at')
      .whereNull('replaced_at')
      .orderBy('created_at', 'desc')
      .forUpdate()
      .first();
  }

  /** When the account may be sent another code: 60 s after the last one, and within 5 resends an hour. */
  private async nextSendAt(
    trx: Knex.Transaction,
    userId: string,
    now: Date,
  ): Promise<{ at: Date; reason: 'soon' | 'hourly' | null }> {
    const last = (await trx('email_verifications')
      .where({ user_id: userId })
      .orderBy('created_at', 'desc')
      .first('created_at')) as { created_at: Date } | undefined;
    const resends = (await trx('email_verifications')
      .where({ user_id: userId, reason: 'resend' })
      .where('created_at', '>', new Date(now.getTime() - HOUR_MS))
      .orderBy('created_at', 'asc')
      .select('created_at')) as { created_at: Date }[];
    const hourly =
      resends.length >= VERIFICATION_RULES.resendsPerHour
        ? new Date(new Date(resends[0]!.created_at).getTime() + HOUR_MS)
        : null;
    const soon = last ? new Date(new Date(last.created_at).getTime() + VERIFICATION_RULES.resendAfterMs) : null;
    if (hourly && hourly > now && (!soon || hourly >= soon)) return { at: hourly, reason: 'hourly' };
    if (soon && soon > now) return { at: soon, reason: 'soon' };
    return { at: now, reason: null };
  }

  /** A signed-in account's code. A wrong one counts (and is answered after the count is committed). */
  async verifyCode(userId: string, code: string): Promise<VerificationAnswer> {
    const outcome = await this.knex.transaction(async (trx) => {
      const now = this.now();
      const user = await this.lockUser(trx, userId);
      if (user.email_verified_at) return { verified: true } as const;
      const row = await this.openCode(trx, userId);
      if (!row || row.email !== user.email) throw expired();
      if (row.attempts >= VERIFICATION_RULES.maxAttempts) {
        const next = await this.nextSendAt(trx, userId, now);
        throw new TooManyRequests('verification.tooManyAttempts', {
          errors: { code: 'verification.tooManyAttempts' },
          retryAfter: seconds(next.at.getTime() - now.getTime()),
        });
      }
      if (now >= new Date(row.expires_at)) throw expired();
      if (!sameHash(row.code_hash, this.codeHash(userId, user.email, code))) {
        const attempts = row.attempts + 1;
        await trx('email_verifications').where({ id: row.id }).update({ attempts });
        return { wrong: VERIFICATION_RULES.maxAttempts - attempts } as const;
      }
      await this.markVerified(trx, row, now);
      return { verified: true } as const;
    });
    if ('wrong' in outcome) {
      throw new BadRequest('verification.wrongCode', {
        errors: { code: 'verification.wrongCode' },
        attemptsLeft: outcome.wrong,
      });
    }
    return outcome;
  }

  /** The mailed link: whoever holds it, signed in or not. */
  async verifyToken(token: string): Promise<VerificationAnswer> {
    const tokenHash = this.tokenHash(token);
    return this.knex.transaction(async (trx) => {
      const now = this.now();
      const found = (await trx('email_verifications').where({ token_hash: tokenHash }).first('user_id')) as
        { user_id: string } | undefined;
      if (!found) throw new BadRequest('verification.invalidLink', { errors: { token: 'verification.invalidLink' } });
      // The account first, then the code, as every other step takes them.
      const user = await this.lockUser(trx, found.user_id);
      const row = (await trx('email_verifications')
        .where({ token_hash: tokenHash })
        .forUpdate()
        .first()) as VerificationRow;
      if (row.used_at) throw new Gone('verification.linkUsed', { errors: { token: 'verification.linkUsed' } });
      if (row.replaced_at || now >= new Date(row.expires_at) || row.email !== user.email) throw expired('token');
      await this.markVerified(trx, row, now);
      return { verified: true };
    });
  }

  /** Sends the signed-in account a new code, within the limits. */
  async resend(userId: string): Promise<VerificationAnswer> {
    const answer = await this.knex.transaction(async (trx) => {
      const now = this.now();
      const user = await this.lockUser(trx, userId);
      if (user.email_verified_at) return { verified: true };
      const next = await this.nextSendAt(trx, userId, now);
      if (next.reason === 'hourly') {
        throw new TooManyRequests('verification.tooManyResends', {
          retryAfter: seconds(next.at.getTime() - now.getTime()),
        });
      }
      if (next.reason === 'soon') {
        throw new TooManyRequests('verification.resendTooSoon', {
          retryAfter: seconds(next.at.getTime() - now.getTime()),
        });
      }
      const state = await this.start(trx, { _id: user.id, email: user.email }, 'resend');
      return { verified: false, ...state };
    });
    if (!answer.verified) this.wake();
    return answer;
  }

  private async markVerified(trx: Knex.Transaction, row: VerificationRow, now: Date): Promise<void> {
    await trx('email_verifications').where({ id: row.id }).update({ used_at: now });
    await trx('users').where({ id: row.user_id }).update({ email_verified_at: now, updated_at: now });
  }
}

function expired(field: 'code' | 'token' = 'code'): Gone {
  return new Gone('verification.expired', { errors: { [field]: 'verification.expired' } });
}

function sameHash(stored: string, given: string): boolean {
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(given, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
