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
 * What a news item's first publication sets off (decision 059): its push notification, its
 * Facebook post. Each listener runs inside the publication's own transaction, once per item (the
 * first publication alone sets `publishedAt`; a later unpublish and republish keeps it), so what
 * it writes there (a push message, a job) exists if and only if the publication does: a process
 * that dies half-way leaves both or neither. It may answer fields it changed on the item, and what
 * to do once the transaction has committed (wake a job's worker, announce a record).
 */
export type NewsPublished = (news: News, trx: Knex.Transaction) => Promise<PublicationEffect | void>;

export interface PublicationEffect {
  /** Fields of the item the listener wrote, for the answer and its event. */
  record?: Partial<News>;
  /** Run once the publication has committed. */
  committed?: () => void;
}

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
 * when it is first published; and in that same transaction, the `published` listeners hear of it.
 * A write that publishes runs in a transaction of its own (or the caller's): the item's row is
 * locked by the write, so of two instances publishing an item at once, the second finds
 * `publishedAt` set once the first has committed, and its listeners never run.
 */
export function newsRules(app: ServerApp, knex: Knex, listeners: readonly NewsPublished[]) {
  return async (context: HookContext, next: NextFunction): Promise<void> => {
    const { method } = context;
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
    }
    if (!publishing) return next();
    const publish = async (trx: Knex.Transaction): Promise<(() => void)[]> => {
      context.params = { ...context.params, transaction: trx };
      await next();
      // `publishedAt` is set by the server alone, on the first publication, then never again.
      const record = context.result as News;
      const now = clockOf(app)();
      const [first] = (await trx(definitions.news.table)
        .where({ id: record._id, status: 'published' })
        .whereNull('published_at')
        .update({ published_at: now })
        .returning('id')) as { id: string }[];
      if (!first) return [];
      let published: News = { ...record, publishedAt: now };
      const committed: (() => void)[] = [];
      for (const listener of listeners) {
        const effect = await listener(published, trx);
        if (effect?.record) published = { ...published, ...effect.record };
        if (effect?.committed) committed.push(effect.committed);
      }
      context.result = published;
      return committed;
    };
    const outer = context.params.transaction as Knex.Transaction | undefined;
    if (outer) {
      const committed = await publish(outer);
      // Once the caller's transaction commits, not before.
      outer.executionPromise.then(() => committed.forEach((run) => run())).catch(() => undefined);
      return;
    }
    const committed = await knex.transaction(publish);
    for (const run of committed) run();
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
