import { BadRequest, NotAuthenticated, TooManyRequests } from '@feathersjs/errors';
import type { Application, Params } from '@feathersjs/feathers';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { callerAddressKey } from '../../auth/address.ts';
import { consume } from '../../auth/limits.ts';
import { useCustomService } from '../custom-service.ts';
import { describeService } from '../../openapi/registry.ts';
import type { VerificationAnswer, Verifications } from './verifications.ts';

/** Links tried per address per 10 minutes (a link's token cannot be guessed; this keeps scanners off). */
export const VERIFICATION_LINK_LIMIT = { points: 30, duration: 10 * 60 } as const;

const CODE = /^\d{6}$/;
const TOKEN = /^[A-Za-z0-9_-]{20,200}$/;

type Request = { code: string } | { token: string } | { resend: true };

/** What was asked for: exactly one of a code, a link's token or a resend. */
function requestOf(data: unknown): Request {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new BadRequest('validation.invalid');
  const entries = Object.entries(data as Record<string, unknown>);
  const [name, value] = entries[0] ?? [];
  if (entries.length !== 1) throw new BadRequest('validation.invalid');
  if (name === 'code') {
    const code = typeof value === 'string' ? value.replace(/\s/g, '') : '';
    if (!CODE.test(code)) throw new BadRequest('validation.invalid', { errors: { code: 'validation.invalid' } });
    return { code };
  }
  if (name === 'token') {
    if (typeof value !== 'string' || !TOKEN.test(value))
      throw new BadRequest('verification.invalidLink', { errors: { token: 'verification.invalidLink' } });
    return { token: value };
  }
  if (name === 'resend' && value === true) return { resend: true };
  throw new BadRequest('validation.invalid');
}

/**
 * `emailVerifications` create: `{code}` verifies the signed-in caller's own account, `{token}` (the
 * mailed link) whoever holds it, `{resend: true}` mails the signed-in caller a new code. Answers
 * `{verified, expiresAt?, resendAfter?}`; verifying never signs anyone in.
 */
export class EmailVerificationsService {
  private readonly verifications: Verifications;
  private readonly linkLimiter: RateLimiterAbstract;

  constructor(verifications: Verifications, linkLimiter: RateLimiterAbstract) {
    this.verifications = verifications;
    this.linkLimiter = linkLimiter;
  }

  async create(data: unknown, params: Params & { user?: { _id?: unknown } | null } = {}): Promise<VerificationAnswer> {
    const request = requestOf(data);
    if ('token' in request) {
      if (params.provider) {
        const wait = await consume(this.linkLimiter, callerAddressKey(params));
        if (wait !== null) throw new TooManyRequests('verification.tooManyAttempts', { retryAfter: wait });
      }
      return this.verifications.verifyToken(request.token);
    }
    const user = params.user;
    if (!user?._id) throw new NotAuthenticated('auth.notAuthenticated');
    const userId = String(user._id);
    return 'code' in request ? this.verifications.verifyCode(userId, request.code) : this.verifications.resend(userId);
  }
}

/** The reference's word on `emailVerifications` (decision 058). */
export const emailVerificationsDescription = describeService('emailVerifications', {
  summary: 'Proving an email address',
  description:
    'With a code (signed in: one’s own account), with the mailed link’s token (anyone holding it), or asking for a ' +
    'new code (`{resend: true}`, signed in). Never a session.',
  access: { find: 'none', get: 'none', create: 'public', patch: 'none', remove: 'none' },
  methods: {
    create: {
      summary: 'Verify, or ask for a new code',
      request: {
        oneOf: [
          { type: 'object', required: ['code'], properties: { code: { type: 'string' } } },
          { type: 'object', required: ['token'], properties: { token: { type: 'string' } } },
          { type: 'object', required: ['resend'], properties: { resend: { const: true } } },
        ],
      },
      answer: {
        type: 'object',
        required: ['verified'],
        properties: {
          verified: { type: 'boolean' },
          expiresAt: { type: 'string', format: 'date-time' },
          resendAfter: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
});

export function configureEmailVerifications(
  app: Application,
  verifications: Verifications,
  linkLimiter: RateLimiterAbstract,
): void {
  const service = new EmailVerificationsService(verifications, linkLimiter);
  useCustomService(app, 'emailVerifications', service, emailVerificationsDescription, { methods: ['create'] });
}

// This service's entry in the application's service map (server/services/types.ts).
declare module '../types.ts' {
  interface ServerServices {
    emailVerifications: EmailVerificationsService;
  }
}
