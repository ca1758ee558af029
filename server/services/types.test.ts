import type { Application } from '@feathersjs/feathers';
import { describe, expectTypeOf, it } from 'vitest';
import type { Definitions } from '../../domain/entities/index.ts';
import type { MissingTranslation, ServiceMap, Services } from '../../domain/entities/services.ts';
import type { Api } from '../app.ts';
import type { EntityService } from './entity/entity-service.ts';
import type { MissingTranslationsService } from './missing-translate/missing-translate.ts';
import type { ServerServices } from './types.ts';

/*
 * The server's services against the callers' map. Checked by the type checker (`npx tsc`): the
 * application is handed to the pages and the tests as a `ServiceMap` (server/pages.ts,
 * tests/integration/harness.ts), and each case below that stops holding fails the check.
 */

/** A users service whose reads answer another entity's records. */
interface WrongUsers extends Omit<ServerServices, 'users'> {
  users: EntityService<Definitions['industries']>;
}

/** No service for ending sessions. */
type MissingService = Omit<ServerServices, 'userSessions'>;

/** A missing-translations list whose find answers loose rows (a locale as any text). */
interface LooseTranslations extends Omit<ServerServices, 'missingTranslate'> {
  missingTranslate: Omit<MissingTranslationsService, 'find'> & {
    find(): Promise<{
      total: number;
      limit: number;
      skip: number;
      data: (Omit<MissingTranslation, 'locale'> & { locale: string })[];
    }>;
  };
}

describe('the application as the service map', () => {
  it('is one: every service answers what the map promises at its path', () => {
    expectTypeOf<Api>().toExtend<ServiceMap>();
    expectTypeOf<ServerServices>().toExtend<Services>();
    const check = (api: Api): ServiceMap => api;
    expectTypeOf(check).returns.toEqualTypeOf<ServiceMap>();
  });

  it('refuses a service at `users` whose get answers another record type', () => {
    expectTypeOf<Application<WrongUsers>>().not.toExtend<ServiceMap>();
    // @ts-expect-error: `users` answers industries
    const wrong = (app: Application<WrongUsers>): ServiceMap => app;
    expectTypeOf(wrong).toBeFunction();
  });

  it('refuses an application without a service the map names', () => {
    expectTypeOf<Application<MissingService>>().not.toExtend<ServiceMap>();
    // @ts-expect-error: no `userSessions`
    const missing = (app: Application<MissingService>): ServiceMap => app;
    expectTypeOf(missing).toBeFunction();
  });

  it('refuses a service whose answer is looser than the map says', () => {
    expectTypeOf<Application<LooseTranslations>>().not.toExtend<ServiceMap>();
    // @ts-expect-error: a locale as any text
    const loose = (app: Application<LooseTranslations>): ServiceMap => app;
    expectTypeOf(loose).toBeFunction();
  });
});
