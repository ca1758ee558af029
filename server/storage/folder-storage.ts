import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { checkKey, checkPrefix, type Storage, type StoredKey, type StoredObject } from './storage.ts';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';

/**
 * Files in a folder (`DATA_DIR/uploads` by default): one instance, or several sharing a network
 * folder. Each object is written to a temporary name and renamed into place.
 */
export class FolderStorage implements Storage {
  readonly kind = 'folder';
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private pathOf(key: string): string {
    return path.join(this.root, ...checkKey(key).split('/'));
  }

  async put(key: string, body: Buffer): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${randomBytes(6).toString('hex')}.part`;
    try {
      await writeFile(temporary, body);
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async putFile(key: string, file: string): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    // Copied beside the target first (the file may be on another disk), then renamed into place.
    const temporary = `${target}.${randomBytes(6).toString('hex')}.part`;
    try {
      await copyFile(file, temporary);
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    const file = this.pathOf(key);
    try {
      const stats = await stat(file);
      if (!stats.isFile()) return null;
      return { body: createReadStream(file), size: stats.size };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async removeAll(prefix: string): Promise<void> {
    await rm(path.join(this.root, checkPrefix(prefix)), { recursive: true, force: true });
  }

  async *list(): AsyncIterable<StoredKey> {
    let folders: string[];
    try {
      folders = await readdir(this.root);
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const folder of folders) {
      let names: string[];
      try {
        names = await readdir(path.join(this.root, folder));
      } catch {
        continue;
      }
      for (const name of names) {
        const key = `${folder}/${name}`;
        try {
          const stats = await stat(path.join(this.root, folder, name));
          // Leftovers of a write cut short are listed too, so the cleanup job removes them.
          yield { key, modifiedAt: stats.mtime };
        } catch (error) {
          if (!isMissing(error)) throw error;
        }
      }
    }
  }
}
