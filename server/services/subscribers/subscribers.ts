import type { Application } from '@feathersjs/feathers';
import type { Redis } from 'ioredis';
import { entities } from '../../../domain/entities/index.ts';
import { createLimiter } from '../../auth/limits.ts';
import type { Config } from '../../config.ts';
import { registerEntityService } from '../entity/register.ts';
import { subscriberRules } from './rules.ts';

/** Newsletter sign-ups: the generic entity service (the campaign rules are the definition's) with a per-address limit. */
export function configureSubscribers(app: Application, { config, redis }: { config: Config; redis: Redis | null }): void {
  const limiter = createLimiter(redis, `${config.redisPrefix}:limit:newsletter`, config.newsletterLimit);
  registerEntityService(app, entities.subscribers, { hooks: [subscriberRules(entities.subscribers, limiter)] });
}
