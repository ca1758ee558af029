import type { HookContext, NextFunction } from '@feathersjs/feathers';
import { definitions } from '../../../domain/entities/index.ts';
import { LOCALES } from '../../../domain/locales.ts';
import { registerEntityService } from '../entity/register.ts';
import { invalid } from '../entity/validate.ts';
import { sanitizeArticleHtml } from './sanitize.ts';
import type { ServerApp } from '../types.ts';

type Data = Record<string, unknown>;

const isObject = (value: unknown): value is Data =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The blogs service's own rules: a new article is a draft unless said otherwise, and an article
 * gets its publication date when it is first published without one.
 */
export async function blogRules(context: HookContext, next: NextFunction): Promise<void> {
  const { method } = context;
  if (method === 'create' && isObject(context.data)) {
    const data: Data = { status: 'draft', ...context.data };
    if (data.status === 'published' && data.publishedAt == null) data.publishedAt = new Date();
    context.data = data;
  }
  if (method === 'patch' && isObject(context.data) && context.id != null) {
    // Plain data or `$set`: either can publish, and either can give the date.
    const data = context.data;
    const set = isObject(data.$set) ? data.$set : {};
    const publishing = data.status === 'published' || set.status === 'published';
    if (publishing && data.publishedAt == null && set.publishedAt == null) {
      const current = (await context.service.get(context.id, { transaction: context.params.transaction })) as {
        publishedAt?: unknown;
      };
      if (current.publishedAt == null) {
        context.data = isObject(data.$set)
          ? { ...data, $set: { ...set, publishedAt: new Date() } }
          : { ...data, publishedAt: new Date() };
      }
    }
  }
  await next();
}

/**
 * Cleans an article's HTML in every language after validation, right before it is written (so
 * `$set` patches are cleaned too). A body with nothing left in English is refused.
 */
export async function sanitizeBlogData(data: Data): Promise<Data> {
  if (!isObject(data.body)) return data;
  const body: Data = {};
  for (const locale of LOCALES) {
    const html = data.body[locale];
    if (typeof html === 'string') body[locale] = sanitizeArticleHtml(html);
  }
  if (!body.en) throw invalid({ 'body.en': 'validation.required' });
  return { ...data, body };
}

/** The blogs service: the generic entity service, its articles sanitised, drafts for staff alone (the definition). */
export function configureBlogs(app: ServerApp): void {
  registerEntityService(app, definitions.blogs, { beforeWrite: sanitizeBlogData, hooks: [blogRules] });
}
