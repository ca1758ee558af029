import type { Knex } from 'knex';
import type { AttachmentFolder } from '../../../domain/uploads/limits.ts';
import { attachmentReferences, type Uploads } from './uploads.ts';

export const CLEANUP_QUEUE = 'attachments.cleanup';
/** How old an unreferenced file must be before the cleanup takes it: an upload in progress is younger. */
export const CLEANUP_AGE_MS = 24 * 60 * 60 * 1000;
/** How often each instance asks for a cleanup; the queue runs one per period, whatever the instances. */
export const CLEANUP_PERIOD_SECONDS = 60 * 60;

/**
 * Folders whose files exist only for a record that refers to them by id (a `ref: 'attachments'`
 * field): a file there that nothing refers to any more is garbage. Content folders join this list
 * when their entities refer to attachments by id; until then staff remove their files themselves.
 */
export const COLLECTED_FOLDERS: readonly AttachmentFolder[] = ['profile'];

/**
 * Removes what nothing uses, older than a day: attachments of the collected folders that no
 * record refers to (a replaced picture, an account removed), and stored objects with no
 * attachment row at all (an upload cut short, a removal whose files could not be deleted).
 */
export async function cleanUpAttachments(uploads: Uploads, now: Date = new Date()): Promise<{ attachments: number; files: number }> {
  const cutoff = new Date(now.getTime() - CLEANUP_AGE_MS);
  const knex = uploads.knex;
  const unused = knex('attachments')
    .whereIn('folder', COLLECTED_FOLDERS)
    .where('created_at', '<', cutoff)
    .where((query: Knex.QueryBuilder) => {
      for (const { table, column } of attachmentReferences()) {
        query.whereNotExists(knex(table).select(knex.raw('1')).where(column, knex.ref('attachments.id')));
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
    const known = new Set(((await knex('attachments').whereIn('id', batch).select('id')) as { id: string }[]).map((row) => row.id));
    for (const id of batch.filter((candidate) => !known.has(candidate))) {
      await uploads.removeFiles(id);
      files += 1;
    }
  }
  return { attachments: removed.length, files };
}
