import type { Readable } from 'node:stream';

/** A stored object as read back: its bytes as a stream and its length. */
export interface StoredObject {
  body: Readable;
  size: number;
}

/** A key and when it was written, as a listing answers it. */
export interface StoredKey {
  key: string;
  modifiedAt: Date;
}

/**
 * Where uploaded files and their variants live (decision 022): a folder under DATA_DIR, or an
 * S3-compatible bucket that several instances share. Keys are made by the server
 * (`{attachmentId}/original`, `{attachmentId}/w800.webp`), never from a user's file name.
 */
export interface Storage {
  readonly kind: 'folder' | 's3';
  /** Writes an object whole: a reader never sees it half-written. */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** Writes a local file's bytes as an object, streamed (an export: never held in memory whole). */
  putFile(key: string, file: string, contentType: string): Promise<void>;
  /** The object, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes every object under `prefix/` (an attachment and all its variants). */
  removeAll(prefix: string): Promise<void>;
  /** Every key, with its time, in no particular order (the cleanup job's walk). */
  list(): AsyncIterable<StoredKey>;
}

const KEY = /^[A-Za-z0-9_-]{1,64}(?:\/[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63})?$/;

/** Refuses any key the server would not make: no `..`, no absolute path, no user text. */
export function checkKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
  return key;
}

export function checkPrefix(prefix: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(prefix)) throw new Error(`Invalid storage prefix: ${JSON.stringify(prefix)}`);
  return prefix;
}
