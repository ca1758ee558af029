import type { HookContext, NextFunction } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import { definitions } from '../../../domain/entities/index.ts';
import { idSchema } from '../../../domain/entities/types.ts';
import { isImageMime } from '../../../domain/uploads/limits.ts';
import { registerEntityService } from '../entity/register.ts';
import { invalid } from '../entity/validate.ts';
import type { ServerApp } from '../types.ts';

/** The header photo a write names, in plain data or a `$set`; undefined when it names none. */
function photoWritten(data: unknown): unknown {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const record = data as Record<string, unknown>;
  if (record.headerPhoto !== undefined) return record.headerPhoto;
  const set = record.$set;
  return typeof set === 'object' && set !== null ? (set as Record<string, unknown>).headerPhoto : undefined;
}

/**
 * The apps' header photo is an image: an attachment that is a PDF, or none at all, is refused by
 * name before the write (the foreign key alone would take any file). Read on the call's own
 * transaction when it has one: on PGlite a query beside an open transaction waits for it forever.
 */
export function headerPhotoRule(knex: Knex) {
  return async (context: HookContext, next: NextFunction) => {
    const photo = context.method === 'create' || context.method === 'patch' ? photoWritten(context.data) : undefined;
    // Anything but an id is the service's schema to refuse, with its own message.
    if (typeof photo === 'string' && idSchema.safeParse(photo).success) {
      const db = (context.params.transaction as Knex.Transaction | undefined) ?? knex;
      const file = (await db('attachments').where('id', photo).first('mime')) as { mime: string } | undefined;
      if (!file) throw invalid({ headerPhoto: 'validation.unknownReference' });
      if (!isImageMime(file.mime)) throw invalid({ headerPhoto: 'validation.notImage' });
    }
    await next();
  };
}

/** The apps' settings (decision 046): the generic entity service, and the photo's rule. */
export function configureAppSettings(app: ServerApp, knex: Knex): void {
  registerEntityService(app, definitions.appSettings, { hooks: [headerPhotoRule(knex)] });
}
