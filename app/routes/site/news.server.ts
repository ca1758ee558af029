import { idSchema } from '../../../domain/entities/types';
import type { ServerContext } from '../../context';

type Caller = Pick<ServerContext, 'api' | 'user'>;

/** What the item's page shows: its text, picture and event, never staff's own fields. */
const PAGE_FIELDS = [
  '_id',
  'title',
  'content',
  'date',
  'image',
  'hasEvent',
  'eventTitle',
  'eventContent',
  'eventStartDate',
  'eventEndDate',
  'eventLocation',
  'eventRegion',
  'eventJoinUrl',
  'eventMapUrl',
] as const;

/**
 * A news item as a visitor may read it, or null: published and in its window (the definition's
 * public rules, as for the apps: a draft or an expired item is a missing page).
 */
export async function findNews(caller: Caller, id: string | undefined) {
  if (id === undefined || !idSchema.safeParse(id).success) return null;
  try {
    return await caller.api
      .service('news')
      .get(id, { provider: 'ssr', user: caller.user, query: { $select: [...PAGE_FIELDS] } });
  } catch (error) {
    if ((error as { code?: unknown }).code === 404) return null;
    throw error;
  }
}
