import type { Params } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import { DEFAULT_FEATURES, featuresPatchSchema, featuresProblems } from '../../../domain/entities/features.ts';
import type { FeaturesPayload } from '../../../domain/features.ts';
import { useCustomService } from '../custom-service.ts';
import { describeService } from '../../openapi/registry.ts';
import { fieldErrors, invalid } from '../entity/validate.ts';
import type { ServerApp } from '../types.ts';

const KEY = 'features';

/**
 * The `features` service: the site's feature flags (contact form, subscription) and its markets
 * (regions, region, currencies, currency). Anyone reads them; admins change them with
 * `patch(null, changes)`, and every connected page hears the change as a `patched` event.
 */
export class FeaturesService {
  private readonly knex: Knex;

  constructor(knex: Knex) {
    this.knex = knex;
  }

  async find(_params?: Params): Promise<FeaturesPayload> {
    const row = await this.knex('site_settings')
      .where({ key: KEY })
      .first<{ value: Partial<FeaturesPayload> } | undefined>();
    return { ...DEFAULT_FEATURES, ...(row?.value ?? {}) };
  }

  async get(_id: unknown, params?: Params): Promise<FeaturesPayload> {
    return this.find(params);
  }

  async patch(_id: unknown, data: unknown, _params?: Params): Promise<FeaturesPayload> {
    const parsed = featuresPatchSchema.safeParse(data);
    if (!parsed.success) throw invalid(fieldErrors(parsed.error, '', data));
    return this.knex.transaction(async (trx) => {
      // Read and write under one lock, so two admins' changes cannot interleave.
      const row = await trx('site_settings')
        .where({ key: KEY })
        .forUpdate()
        .first<{ value: Partial<FeaturesPayload> } | undefined>();
      const next: FeaturesPayload = { ...DEFAULT_FEATURES, ...(row?.value ?? {}), ...parsed.data };
      const problems = featuresProblems(next);
      if (Object.keys(problems).length > 0) throw invalid(problems);
      await trx('site_settings')
        .insert({ key: KEY, value: JSON.stringify(next), updated_at: trx.fn.now() })
        .onConflict('key')
        .merge();
      return next;
    });
  }
}

/** The reference's word on `features` (decision 058). */
export const featuresDescription = describeService('features', {
  summary: 'The site’s feature flags and markets',
  description:
    'Whether the contact form and subscriptions are on, the regions and currencies offered. Anyone reads them; ' +
    'admins change them with `PATCH /api/features` (no id), and every connected page hears a `patched` event.',
  access: { find: 'public', get: 'public', patch: ['admin'], create: 'none', remove: 'none' },
  withoutId: ['patch'],
  events: ['patched'],
  methods: {
    find: { summary: 'Read the flags and markets', answer: featuresPatchSchema },
    get: { summary: 'The same as find, whatever the id', answer: featuresPatchSchema },
    patch: { summary: 'Change the flags and markets', request: featuresPatchSchema, answer: featuresPatchSchema },
  },
});

export function configureFeatures(app: ServerApp, knex: Knex): void {
  useCustomService(app, 'features', new FeaturesService(knex), featuresDescription, {
    methods: ['find', 'get', 'patch'],
  });
  app.service('features').publish(() => [app.channel('anonymous'), app.channel('authenticated')]);
}

// This service's entry in the application's service map (server/services/types.ts).
declare module '../types.ts' {
  interface ServerServices {
    features: FeaturesService;
  }
}
