import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Request } from 'express';
import busboy from 'busboy';
import { uploadErrors } from './errors.ts';

/** A file received into a temporary file, under a generated name. */
export interface ReceivedFile {
  /** The temporary file (removed by `discard`). */
  path: string;
  /** The name the sender gave, cleaned for display only: never a path. */
  name: string;
  size: number;
}

export interface ReceiveLimits {
  maxBytes: number;
  maxFiles: number;
  tempDir: string;
}

/** Room for the multipart boundaries and part headers around each file. */
const PART_OVERHEAD = 16 * 1024;

/** The sender's file name as a display name: no folders, no control characters, at most 255 characters. */
export function displayName(raw: string | undefined): string {
  const base = (raw ?? '').normalize('NFC').split(/[/\\]/).pop() ?? '';
  // Control characters and the bidirectional overrides that make `exe.jpg` read as `gpj.exe`.
  const clean = base.replace(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu, '').trim();
  return [...(clean === '' || clean === '.' || clean === '..' ? 'file' : clean)].slice(0, 255).join('');
}

/** Removes the temporary files of an upload (whatever became of it). */
export async function discard(files: readonly ReceivedFile[]): Promise<void> {
  await Promise.all(files.map((file) => rm(file.path, { force: true })));
}

/**
 * Reads a multipart request's files (field `file`) into temporary files, within the limits: a
 * file one byte over `maxBytes`, or one file too many, refuses the whole request and leaves no
 * temporary file. Other fields are ignored.
 */
export async function receiveFiles(req: Request, limits: ReceiveLimits): Promise<ReceivedFile[]> {
  if (!req.is('multipart/form-data')) throw uploadErrors.notMultipart();
  const ceiling = limits.maxFiles * (limits.maxBytes + PART_OVERHEAD);
  if (Number(req.headers['content-length'] ?? 0) > ceiling) throw uploadErrors.tooLarge(limits.maxBytes);
  await mkdir(limits.tempDir, { recursive: true });

  const files: ReceivedFile[] = [];
  const writes: Promise<void>[] = [];
  let refusal: Error | undefined;
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      // busboy stops a file when it reaches `fileSize`: one byte past the limit is the first refused.
      limits: {
        fileSize: limits.maxBytes + 1,
        files: limits.maxFiles,
        fields: 20,
        fieldSize: 1024,
        parts: limits.maxFiles + 20,
        headerPairs: 50,
      },
    });
  } catch {
    throw uploadErrors.notMultipart();
  }

  const refuse = (error: Error) => {
    refusal ??= error;
  };
  parser.on('file', (field, stream, info) => {
    if (field !== 'file' || refusal) {
      stream.resume();
      return;
    }
    const file: ReceivedFile = {
      path: path.join(limits.tempDir, `${randomBytes(12).toString('hex')}.upload`),
      name: displayName(info.filename),
      size: 0,
    };
    files.push(file);
    stream.on('data', (chunk: Buffer) => {
      file.size += chunk.length;
    });
    // busboy stops a file at the limit and says so; the request is refused once it has been read.
    stream.on('limit', () => refuse(uploadErrors.tooLarge(limits.maxBytes)));
    writes.push(pipeline(stream, createWriteStream(file.path)).catch((error: Error) => refuse(error)));
  });
  parser.on('filesLimit', () => refuse(uploadErrors.tooManyFiles(limits.maxFiles)));
  parser.on('partsLimit', () => refuse(uploadErrors.badRequest()));
  parser.on('fieldsLimit', () => refuse(uploadErrors.badRequest()));

  // A body without a length is counted as it comes: past the ceiling the request is cut off.
  let received = 0;
  const counter = (chunk: Buffer) => {
    received += chunk.length;
    if (received > ceiling) {
      refuse(uploadErrors.tooLarge(limits.maxBytes));
      req.unpipe(parser);
      parser.destroy();
      req.resume();
    }
  };
  req.on('data', counter);
  // A connection lost half-way (a tab closed, a network gone): the parser is stopped with the
  // file it was writing, so its temporary file is closed and removed below like any refusal's.
  const cutShort = () => {
    if (req.complete) return;
    refuse(uploadErrors.badRequest());
    parser.destroy(uploadErrors.badRequest());
  };
  req.on('aborted', cutShort);
  req.on('error', cutShort);
  req.on('close', cutShort);
  try {
    await new Promise<void>((resolve, reject) => {
      parser.on('close', resolve);
      parser.on('error', (error: Error) =>
        reject(refusal ?? (/Unexpected end|Malformed/i.test(error.message) ? uploadErrors.badRequest() : error)),
      );
      req.pipe(parser);
    }).catch((error: Error) => refuse(error));
    await Promise.all(writes);
  } finally {
    req.off('data', counter);
    req.off('aborted', cutShort);
    req.off('error', cutShort);
    req.off('close', cutShort);
  }
  if (refusal || files.length === 0) {
    await discard(files);
    throw refusal ?? uploadErrors.noFile();
  }
  return files;
}
