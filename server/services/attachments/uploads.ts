import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { entities } from '../../../domain/entities/index.ts';
import { columnOf, hintsOf } from '../../../domain/entities/types.ts';
import {
  type AttachmentFolder,
  type ImageFormat,
  IMAGE_WIDTHS,
  type ImageWidth,
  isImageMime,
} from '../../../domain/uploads/limits.ts';
import type { AttachmentInfo } from '../../../domain/uploads/info.ts';
import { newId } from '../../db/ids.ts';
import type { Storage } from '../../storage/storage.ts';
import { uploadErrors } from './errors.ts';
import type { Media } from './media.ts';
import type { ReceivedFile } from './receive.ts';

/** The stored facts of an attachment that serving it needs. */
export interface AttachmentRow {
  id: string;
  name: string;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  folder: AttachmentFolder;
  uploaded_by: string | null;
  created_at: Date;
}

/** A stored file ready to be sent: its bytes, type and the name of its variant (for its ETag). */
export interface Served {
  body: Readable;
  size: number;
  mime: string;
  variant: string;
}

/** Where an attachment's bytes are kept: its original and each variant, under its id. */
export const storageKeys = {
  original: (id: string) => `${id}/original`,
  thumb: (id: string) => `${id}/thumb.webp`,
  variant: (id: string, width: number, format: ImageFormat) => `${id}/w${width}.${format}`,
};

export function infoOf(row: Pick<AttachmentRow, 'id' | 'name' | 'size' | 'mime' | 'width' | 'height'>): AttachmentInfo {
  const image = isImageMime(row.mime);
  return {
    id: row.id,
    _id: row.id,
    name: row.name,
    size: Number(row.size),
    mime: row.mime,
    width: row.width,
    height: row.height,
    src: `/api/attachments/${row.id}`,
    thumb: image ? `/api/thumbs/${row.id}` : null,
  };
}

export interface AttachmentReference {
  table: string;
  column: string;
  kind: 'id' | 'text';
}

/**
 * What keeps a file in use: the fields of every entity that refer to an attachment by id
 * (`ref: 'attachments'`, kind `id`), and the fields that may hold its address in their text (an
 * image field holding `/api/attachments/{id}`, a rich text with the picture in it, a gallery's
 * list of ids: kind `text`).
 */
export function attachmentReferences(): AttachmentReference[] {
  return Object.values(entities).flatMap((def) =>
    Object.entries(def.fields).flatMap(([name, field]): AttachmentReference[] => {
      const column = columnOf(name, field);
      if (field.kind === 'ref' && field.ref === 'attachments') return [{ table: def.table, column, kind: 'id' }];
      const widget = hintsOf(field).widget;
      // A gallery's list of ids (jsonb) is read as its text, as an image field's address is.
      if (widget === 'image' || widget === 'richText' || widget === 'gallery')
        return [{ table: def.table, column, kind: 'text' }];
      return [];
    }),
  );
}

export interface UploadsDependencies {
  knex: Knex;
  storage: Storage;
  media: Media;
  logger: Logger;
  /**
   * Told after a user's picture changed (their row was written here, not through the users
   * service): tells the account's sessions and listeners, as a change through the service would.
   */
  onPictureChanged?: (userId: string) => Promise<void>;
  /**
   * Told after attachment rows were written here (stored, or a replaced picture removed), not
   * through the service: announces them as `created` and `removed`, so open tables show them.
   */
  onRowsChanged?: (change: { created: string[]; removed: string[] }) => Promise<void>;
}

/**
 * Storing uploads and serving them (decision 022): each file checked by its content, images
 * decoded and encoded again, kept under a generated id; variants made on first request, once, and
 * kept in the storage beside the original.
 */
export class Uploads {
  readonly knex: Knex;
  readonly storage: Storage;
  readonly media: Media;
  private readonly logger: Logger;
  /** Variants being made now, so concurrent first requests make each once. */
  private readonly making = new Map<string, Promise<void>>();

  private readonly onPictureChanged: UploadsDependencies['onPictureChanged'];
  private readonly onRowsChanged: UploadsDependencies['onRowsChanged'];

  constructor({ knex, storage, media, logger, onPictureChanged, onRowsChanged }: UploadsDependencies) {
    this.onPictureChanged = onPictureChanged;
    this.onRowsChanged = onRowsChanged;
    this.knex = knex;
    this.storage = storage;
    this.media = media;
    this.logger = logger;
  }

  /**
   * Stores received files into a folder for a user: all of them or none. A picture uploaded to
   * `profile` becomes the user's picture, and the one it replaces is removed.
   */
  async store(files: readonly ReceivedFile[], folder: AttachmentFolder, userId: string): Promise<AttachmentInfo[]> {
    const rows: AttachmentRow[] = [];
    try {
      for (const file of files) {
        const mime = await this.media.typeOf(file.path, { imagesOnly: folder === 'profile' });
        const id = newId();
        const row: AttachmentRow = {
          id,
          name: file.name,
          mime,
          size: file.size,
          width: null,
          height: null,
          folder,
          uploaded_by: userId,
          created_at: new Date(),
        };
        if (isImageMime(mime)) {
          const { image, thumb } = await this.media.original(file.path, mime);
          // Stored first under the id, so a row never names bytes that are missing.
          await this.storage.put(storageKeys.original(id), image.body, image.mime);
          rows.push(row);
          Object.assign(row, { size: image.body.length, width: image.width, height: image.height });
          await this.storage.put(storageKeys.thumb(id), thumb.body, thumb.mime);
        } else {
          rows.push(row);
          await this.storage.put(storageKeys.original(id), await readFile(file.path), mime);
        }
      }
      let replaced: string | null = null;
      await this.knex.transaction(async (trx) => {
        await trx('attachments').insert(rows.map(({ created_at: _created, ...row }) => row));
        if (folder === 'profile') {
          const user = await trx('users').where('id', userId).forUpdate().first('picture_id');
          replaced = (user?.picture_id as string | null | undefined) ?? null;
          await trx('users')
            .where('id', userId)
            .update({ picture_id: rows[rows.length - 1]?.id, updated_at: trx.fn.now() });
        }
      });
      if (replaced) await this.remove(replaced);
      if (folder === 'profile') {
        await this.onPictureChanged?.(userId).catch((error: unknown) =>
          this.logger.warn({ err: error, user: userId }, 'a changed picture was not announced'),
        );
      }
      const change = { created: rows.map((row) => row.id), removed: replaced ? [replaced] : [] };
      await this.onRowsChanged?.(change).catch((error: unknown) =>
        this.logger.warn({ err: error, ...change }, 'stored attachments were not announced'),
      );
      return rows.map(infoOf);
    } catch (error) {
      await Promise.all(rows.map((row) => this.storage.removeAll(row.id).catch(() => undefined)));
      throw error;
    }
  }

  /** The attachment's row, or null. */
  async find(id: string): Promise<AttachmentRow | null> {
    const row = (await this.knex('attachments').where('id', id).first()) as AttachmentRow | undefined;
    return row ?? null;
  }

  /** Removes an attachment's row and every stored object of it (its variants too). */
  async remove(id: string): Promise<void> {
    await this.knex('attachments').where('id', id).delete();
    await this.removeFiles(id);
  }

  /** The stored objects of an attachment; failures are logged and left to the cleanup job. */
  async removeFiles(id: string): Promise<void> {
    await this.storage
      .removeAll(id)
      .catch((error: unknown) =>
        this.logger.warn({ err: error, attachment: id }, 'attachment files not removed; the cleanup job will'),
      );
  }

  /** The original as uploaded (an image as encoded again). */
  async original(row: AttachmentRow): Promise<Served> {
    const stored = await this.storage.get(storageKeys.original(row.id));
    if (!stored) throw uploadErrors.notFound();
    return { body: stored.body, size: stored.size, mime: row.mime, variant: 'original' };
  }

  /**
   * An image at a named width in a format, made on its first request and kept. A width past the
   * original's is the original's (never enlarged), and shares its stored variant.
   */
  async variant(row: AttachmentRow, width: ImageWidth | undefined, format: ImageFormat): Promise<Served> {
    if (!isImageMime(row.mime)) throw uploadErrors.notAnImage();
    const wanted = width ? IMAGE_WIDTHS[width] : Number.POSITIVE_INFINITY;
    const pixels = Math.min(wanted, row.width ?? wanted);
    const key = storageKeys.variant(row.id, pixels, format);
    const mime = format === 'webp' ? 'image/webp' : 'image/jpeg';
    // The original is read in the queue's turn, not before it (memory bounded by the queue).
    return this.cached(
      key,
      mime,
      `w${pixels}.${format}`,
      async () => (await this.media.resize(() => this.readOriginal(row.id), pixels, format)).body,
    );
  }

  /** The thumbnail (made at upload; made again when it is missing). */
  async thumb(row: AttachmentRow): Promise<Served> {
    if (!isImageMime(row.mime)) throw uploadErrors.notAnImage();
    return this.cached(
      storageKeys.thumb(row.id),
      'image/webp',
      'thumb',
      async () => (await this.media.thumb(() => this.readOriginal(row.id))).body,
    );
  }

  /** A stored original's bytes, whole (an image about to be worked). */
  private async readOriginal(id: string): Promise<Buffer> {
    const source = await this.storage.get(storageKeys.original(id));
    if (!source) throw uploadErrors.notFound();
    return buffer(source.body);
  }

  private async cached(key: string, mime: string, variant: string, make: () => Promise<Buffer>): Promise<Served> {
    const found = await this.storage.get(key);
    if (found) return { body: found.body, size: found.size, mime, variant };
    let pending = this.making.get(key);
    if (!pending) {
      pending = (async () => {
        await this.storage.put(key, await make(), mime);
      })().finally(() => this.making.delete(key));
      this.making.set(key, pending);
    }
    await pending;
    const made = await this.storage.get(key);
    if (!made) throw uploadErrors.notFound();
    return { body: made.body, size: made.size, mime, variant };
  }
}
