import type { HookContext, NextFunction } from '@feathersjs/feathers';
import type { Knex } from 'knex';
import { definitions, type Definitions } from '../../../domain/entities/index.ts';
import type { RecordOf } from '../../../domain/entities/types.ts';
import { LOCALES } from '../../../domain/locales.ts';
import { clockOf } from '../../clock.ts';
import { sanitizeArticleHtml } from '../blogs/sanitize.ts';
import { registerEntityService } from '../entity/register.ts';
import { invalid } from '../entity/validate.ts';
import type { ServerApp } from '../types.ts';

type Data = Record<string, unknown>;
export type News = RecordOf<Definitions['news']>;

/**
 * What happens once when a news item is first published: the seam where the push message
 * (`sendNotification`) and the Facebook and Instagram posts (`postToFacebook`) will be sent
 * (decision 056). It runs after the write is committed, once per item: `publishedAt` is set by
 * the first publication alone, and a later unpublish and republish keeps it.
 */
export type NewsPublished = (news: News) => Promise<void>;

const isObject = (value: unknown): value is Data =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Cleans a translated rich text in every language; none left in English is refused when `required`. */
function sanitizeI18n(value: unknown, field: string, required: boolean): Data | undefined {
  if (!isObject(value)) return undefined;
  const clean: Data = {};
  for (const locale of LOCALES) {
    const html = value[locale];
    if (typeof html === 'string') clean[locale] = sanitizeArticleHtml(html);
  }
  if (!clean.en) {
    if (required) throw invalid({ [`${field}.en`]: 'validation.required' });
    return undefined;
  }
  return clean;
}

/**
 * Cleans the item's and its event's HTML after validation, right before the write (so `$set`
 * patches are cleaned too), with the blog's sanitiser: what the editor offers and nothing else.
 */
export async function sanitizeNewsData(data: Data): Promise<Data> {
  const clean: Data = { ...data };
  if ('content' in data && isObject(data.content)) clean.content = sanitizeI18n(data.content, 'content', true);
  if ('eventContent' in data && isObject(data.eventContent))
    clean.eventContent = sanitizeI18n(data.eventContent, 'eventContent', false) ?? null;
  return clean;
}

/**
 * The news service's own rules: a new item is a draft unless said otherwise; it gets `publishedAt`
 * when it is first published; and after such a write, the `published` listeners hear of it once.
 */
export function newsRules(app: ServerApp, knex: Knex, listeners: readonly NewsPublished[]) {
  return async (context: HookContext, next: NextFunction): Promise<void> => {
    const { method } = context;
    const now = clockOf(app)();
    let publishing = false;
    if (method === 'create' && isObject(context.data)) {
      const data: Data = { status: 'draft', ...context.data };
      publishing = data.status === 'published';
      context.data = data;
    }
    if (method === 'patch' && isObject(context.data) && context.id != null) {
      const data = context.data;
      const set = isObject(data.$set) ? data.$set : {};
      publishing = data.status === 'published' || set.status === 'published';
      if (publishing) {
        const current = (await context.service.get(context.id, { transaction: context.params.transaction })) as {
          publishedAt?: unknown;
        };
        publishing = current.publishedAt == null;
      }
    }
    await next();
    if (!publishing) return;
    // `publishedAt` is set by the server alone, on the first publication, then never again.
    const record = context.result as News;
    const db: Knex = (context.params.transaction as Knex.Transaction | undefined) ?? knex;
    const [first] = (await db(definitions.news.table)
      .where({ id: record._id, status: 'published' })
      .whereNull('published_at')
      .update({ published_at: now })
      .returning('id')) as { id: string }[];
    if (!first) return;
    const published: News = { ...record, publishedAt: now };
    context.result = published;
    for (const listener of listeners) await listener(published);
  };
}

/**
 * The news service: the generic entity service, its rich texts sanitised, drafts and items out of
 * their window for staff alone (the definition's `publicWhere` and `publicWindow`).
 */
export function configureNews(
  app: ServerApp,
  knex: Knex,
  options: { published?: readonly NewsPublished[] } = {},
): void {
  registerEntityService(app, definitions.news, {
    beforeWrite: sanitizeNewsData,
    hooks: [newsRules(app, knex, options.published ?? [])],
  });
}
