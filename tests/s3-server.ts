import { mkdtemp, rm, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../server/storage/s3-storage.ts';

export interface LocalS3 {
  settings: S3Settings;
  /**
   * Dates an object as written at `time` (the time a listing answers): how a test makes a file
   * look a day old, as `utimes` does for the folder storage.
   */
  setModified(key: string, time: Date): Promise<void>;
  close(): Promise<void>;
}

/** A local S3-compatible server (s3rver) on a free port with its own temporary folder and bucket. */
export async function startLocalS3(bucket = 'uploads'): Promise<LocalS3> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 's3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    settings: {
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      bucket,
      // s3rver's fixed credentials.
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    },
    async setModified(key, time) {
      // s3rver keeps an object as `{bucket}/{folders}/{name}._S3rver_object` and answers its mtime.
      const parts = key.split('/');
      const name = parts.pop() ?? '';
      await utimes(path.join(directory, bucket, ...parts, `${name}._S3rver_object`), time, time);
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
