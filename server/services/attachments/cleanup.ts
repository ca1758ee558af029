import type { Knex } from 'knex';
import type { AttachmentFolder } from '../../../domain/uploads/limits.ts';
import { attachmentReferences, type Uploads } from './uploads.ts';

export const CLEANUP_QUEUE = 'attachments.cleanup';
/** How old an unreferenced file must be before the cleanup takes it: an upload in progress is younger. */
export const CLEANUP_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Folders whose files exist only for a record that uses them: a picture of an account, a cover or
 * an image in an article, the app settings' photos. A file there that no record uses any more (by
 * id, or by its address in an image field or a rich text) is garbage. The other content folders
 * (general, news, ads, products) are the staff's media library: their files may be linked from
 * outside the site (a mail, a post), so they stay until staff remove them.
 */
export const COLLECTED_FOLDERS: readonly AttachmentFolder[] = ['profile', 'blogs', 'settings'];

/**
 * Removes what nothing uses, older than a day: attachments of the collected folders that no
 * record refers to (a replaced picture, an account or an article removed, a cover replaced), and
 * stored objects with no attachment row at all (an upload cut short, a removal whose files could
 * not be deleted).
 */
export async function cleanUpAttachments(
  uploads: Uploads,
  now: Date = new Date(),
): Promise<{ attachments: number; files: number }> {
  const cutoff = new Date(now.getTime() - CLEANUP_AGE_MS);
  const knex = uploads.knex;
  const unused = knex('attachments')
    .whereIn('folder', COLLECTED_FOLDERS)
    .where('created_at', '<', cutoff)
    .where((query: Knex.QueryBuilder) => {
      for (const { table, column, kind } of attachmentReferences()) {
        const uses = knex(table).select(knex.raw('1'));
        if (kind === 'id') uses.where(column, knex.ref('attachments.id'));
        // The id (24 hex digits) anywhere in the text: its address, a variant's, a thumbnail's.
        else uses.whereRaw('strpos(??::text, "attachments"."id"::text) > 0', [`${table}.${column}`]);
        query.whereNotExists(uses);
      }
    });
  const removed = (await unused.delete().returning('id')) as { id: string }[];
  for (const { id } of removed) await uploads.removeFiles(id);

  // Stored objects by attachment id, with the time of the newest one.
  const newest = new Map<string, Date>();
  for await (const { key, modifiedAt } of uploads.storage.list()) {
    const id = key.split('/')[0] ?? '';
    const seen = newest.get(id);
    if (!seen || seen < modifiedAt) newest.set(id, modifiedAt);
  }
  const old = [...newest].filter(([, time]) => time < cutoff).map(([id]) => id);
  let files = 0;
  for (let start = 0; start < old.length; start += 500) {
    const batch = old.slice(start, start + 500);
    const known = new Set(
      ((await knex('attachments').whereIn('id', batch).select('id')) as { id: string }[]).map((row) => row.id),
    );
    for (const id of batch.filter((candidate) => !known.has(candidate))) {
      await uploads.removeFiles(id);
      files += 1;
    }
  }
  return { attachments: removed.length, files };
}
