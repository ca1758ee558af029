import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalS3, type LocalS3 } from '../../tests/s3-server.ts';
import { FolderStorage } from './folder-storage.ts';
import { S3Storage } from './s3-storage.ts';
import type { Storage } from './storage.ts';

async function read(storage: Storage, key: string): Promise<Buffer | null> {
  const stored = await storage.get(key);
  return stored ? buffer(stored.body) : null;
}

async function collect(storage: Storage): Promise<string[]> {
  const keys: string[] = [];
  for await (const { key } of storage.list()) keys.push(key);
  return keys.sort();
}

/** One suite that every storage adapter passes. */
function storageSuite(name: string, open: () => Promise<{ storage: Storage; close(): Promise<void> }>) {
  describe(`${name} storage`, () => {
    let storage: Storage;
    let close: () => Promise<void>;

    beforeAll(async () => {
      ({ storage, close } = await open());
    });
    afterAll(async () => close());

    it('keeps what is put and reads it back with its size', async () => {
      const bytes = Buffer.from('héllo 你好');
      await storage.put('aaa111/original', bytes, 'text/plain');
      expect((await storage.get('aaa111/original'))?.size).toBe(bytes.length);
      expect(await read(storage, 'aaa111/original')).toEqual(bytes);
    });

    it('keeps a local file put by its path, streamed', async () => {
      const folder = await mkdtemp(path.join(os.tmpdir(), 'storage-file-'));
      const file = path.join(folder, 'export.csv');
      const bytes = Buffer.from('\uFEFFname,姓名\n'.repeat(1000));
      await writeFile(file, bytes);
      await storage.putFile('ddd444/contactForms-2026-01-02.csv', file, 'text/csv');
      expect(await read(storage, 'ddd444/contactForms-2026-01-02.csv')).toEqual(bytes);
      await rm(folder, { recursive: true, force: true });
      await storage.removeAll('ddd444');
    });

    it('answers null for a key that holds nothing', async () => {
      expect(await storage.get('nothing0/original')).toBeNull();
    });

    it('replaces an object put again under the same key', async () => {
      await storage.put('bbb222/w400.webp', Buffer.from('first'), 'image/webp');
      await storage.put('bbb222/w400.webp', Buffer.from('second'), 'image/webp');
      expect((await read(storage, 'bbb222/w400.webp'))?.toString()).toBe('second');
    });

    it('removes an attachment with all its variants, and nothing else', async () => {
      await storage.put('ccc333/original', Buffer.from('o'), 'image/png');
      await storage.put('ccc333/w800.jpg', Buffer.from('v'), 'image/jpeg');
      await storage.put('ccc3330/original', Buffer.from('neighbour'), 'image/png');
      await storage.removeAll('ccc333');
      expect(await storage.get('ccc333/original')).toBeNull();
      expect(await storage.get('ccc333/w800.jpg')).toBeNull();
      expect(await storage.get('ccc3330/original')).not.toBeNull();
      await storage.removeAll('never0');
    });

    it('lists every key with the time it was written', async () => {
      const before = Date.now() - 60_000;
      const keys = await collect(storage);
      expect(keys).toEqual(expect.arrayContaining(['aaa111/original', 'bbb222/w400.webp', 'ccc3330/original']));
      expect(keys).not.toContain('ccc333/original');
      for await (const { modifiedAt } of storage.list()) expect(modifiedAt.getTime()).toBeGreaterThan(before);
    });

    it('refuses keys the server would never make (paths, dots, user names)', async () => {
      for (const key of [
        '../etc/passwd',
        '/abs/original',
        'a/../../b',
        'a/b/c',
        'a b/original',
        '',
        'id/..',
        'x/.hidden',
      ]) {
        await expect(storage.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(/Invalid storage key/);
        await expect(storage.get(key)).rejects.toThrow(/Invalid storage key/);
      }
      await expect(storage.removeAll('..')).rejects.toThrow(/Invalid storage prefix/);
      await expect(storage.removeAll('a/b')).rejects.toThrow(/Invalid storage prefix/);
    });
  });
}

storageSuite('folder', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'uploads-'));
  return { storage: new FolderStorage(root), close: () => rm(root, { recursive: true, force: true }) };
});

storageSuite('S3 (s3rver)', async () => {
  const s3: LocalS3 = await startLocalS3();
  const storage = new S3Storage(s3.settings);
  return {
    storage,
    async close() {
      storage.close();
      await s3.close();
    },
  };
});

describe('folder storage writes', () => {
  it('leaves no partial file behind', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'uploads-'));
    const storage: Storage = new FolderStorage(root);
    await storage.put('ddd444/original', Buffer.alloc(1024, 1), 'application/octet-stream');
    expect(await readdir(path.join(root, 'ddd444'))).toEqual(['original']);
    await rm(root, { recursive: true, force: true });
  });
});
