import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { checkKey, checkPrefix, type Storage, type StoredKey, type StoredObject } from './storage.ts';

export interface S3Settings {
  endpoint: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** `bucket` in the path rather than the host name (MinIO, s3rver, most self-hosted servers). */
  forcePathStyle: boolean;
}

/** An S3-compatible bucket (AWS S3, MinIO, R2...), shared by every instance of the server. */
export class S3Storage implements Storage {
  readonly kind = 's3';
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.client = new S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
      ...(settings.accessKeyId && settings.secretAccessKey
        ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
        : {}),
    });
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: checkKey(key),
        Body: body,
        ContentType: contentType,
        ContentLength: body.length,
      }),
    );
  }

  async putFile(key: string, file: string, contentType: string): Promise<void> {
    const { size } = await stat(file);
    // The checksum is read from the file first, so the client sends it as a header and streams the
    // body as it is (else it would frame the body in chunks with a trailing checksum, which some
    // S3-compatible servers do not read). One request, up to S3's 5 GB per object.
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: checkKey(key),
        Body: createReadStream(file),
        ContentType: contentType,
        ContentLength: size,
        ChecksumSHA256: hash.digest('base64'),
      }),
    );
  }

  async get(key: string): Promise<StoredObject | null> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
      const body = answer.Body;
      if (!body) return null;
      // On Node.js the client answers the HTTP response itself, a Readable.
      if (!(body instanceof Readable)) throw new Error('The S3 client answered a body that is not a Node.js stream');
      return { body, size: Number(answer.ContentLength ?? 0) };
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null;
      throw error;
    }
  }

  private async *keys(prefix?: string): AsyncIterable<StoredKey> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const item of page.Contents ?? []) {
        if (item.Key) yield { key: item.Key, modifiedAt: item.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async removeAll(prefix: string): Promise<void> {
    const batch: string[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      batch.length = 0;
    };
    for await (const { key } of this.keys(`${checkPrefix(prefix)}/`)) {
      batch.push(key);
      if (batch.length === 1000) await flush();
    }
    await flush();
  }

  list(): AsyncIterable<StoredKey> {
    return this.keys();
  }

  close(): void {
    this.client.destroy();
  }
}
