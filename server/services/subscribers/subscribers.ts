import type { Redis } from 'ioredis';
import { definitions } from '../../../domain/entities/index.ts';
import { createLimiter } from '../../auth/limits.ts';
import type { Config } from '../../config.ts';
import { registerEntityService } from '../entity/register.ts';
import { subscriberRules } from './rules.ts';
import type { ServerApp } from '../types.ts';

/** Newsletter sign-ups: the generic entity service (the campaign rules are the definition's) with a per-address limit. */
export function configureSubscribers(app: ServerApp, { config, redis }: { config: Config; redis: Redis | null }): void {
  const limiter = createLimiter(redis, `${config.redisPrefix}:limit:newsletter`, config.newsletterLimit);
  registerEntityService(app, definitions.subscribers, { hooks: [subscriberRules(definitions.subscribers, limiter)] });
}
