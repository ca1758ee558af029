import { open, type FileHandle } from 'node:fs/promises';
import { inflateRawSync } from 'node:zlib';

/**
 * A small reader of ZIP archives (PKWARE APPNOTE: the central directory, entries stored or
 * deflated), enough for Facebook's "Download your information" archives, read from a file on disk
 * one entry at a time. ZIP64, encrypted and multi-disk archives are refused; an entry is read only
 * up to the size its directory gives, and no larger than asked.
 */
export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  offset: number;
  encrypted: boolean;
}

export class ZipError extends Error {}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  if (bytesRead !== length) throw new ZipError('truncated archive');
  return buffer;
}

export class ZipReader {
  private readonly file: FileHandle;
  readonly entries: ReadonlyMap<string, ZipEntry>;

  private constructor(file: FileHandle, entries: ReadonlyMap<string, ZipEntry>) {
    this.file = file;
    this.entries = entries;
  }

  /** Opens an archive and reads its directory (at most `maxEntries` entries). */
  static async open(path: string, maxEntries = 50_000): Promise<ZipReader> {
    const file = await open(path, 'r');
    try {
      const { size } = await file.stat();
      const tailLength = Math.min(size, 22 + 0xffff);
      if (tailLength < 22) throw new ZipError('not an archive');
      const tail = await readAt(file, size - tailLength, tailLength);
      let end = -1;
      for (let i = tail.length - 22; i >= 0; i -= 1)
        if (tail.readUInt32LE(i) === EOCD) {
          end = i;
          break;
        }
      if (end < 0) throw new ZipError('not an archive');
      const count = tail.readUInt16LE(end + 10);
      const directorySize = tail.readUInt32LE(end + 12);
      const directoryOffset = tail.readUInt32LE(end + 16);
      if (count === 0xffff || directoryOffset === 0xffffffff) throw new ZipError('ZIP64 archives are not read');
      if (count > maxEntries) throw new ZipError('too many entries');
      if (directoryOffset + directorySize > size) throw new ZipError('truncated archive');
      const directory = await readAt(file, directoryOffset, directorySize);
      const entries = new Map<string, ZipEntry>();
      let at = 0;
      for (let n = 0; n < count; n += 1) {
        if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL) throw new ZipError('bad directory');
        const flags = directory.readUInt16LE(at + 8);
        const nameLength = directory.readUInt16LE(at + 28);
        const extraLength = directory.readUInt16LE(at + 30);
        const commentLength = directory.readUInt16LE(at + 32);
        const name = directory.subarray(at + 46, at + 46 + nameLength).toString(flags & 0x800 ? 'utf8' : 'latin1');
        const entry: ZipEntry = {
          name: name.replace(/\\/g, '/'),
          method: directory.readUInt16LE(at + 10),
          compressedSize: directory.readUInt32LE(at + 20),
          size: directory.readUInt32LE(at + 24),
          offset: directory.readUInt32LE(at + 42),
          encrypted: (flags & 1) === 1,
        };
        if (!entry.name.endsWith('/')) entries.set(entry.name, entry);
        at += 46 + nameLength + extraLength + commentLength;
      }
      return new ZipReader(file, entries);
    } catch (error) {
      await file.close();
      throw error;
    }
  }

  /** The entry whose path ends with `suffix` (a folder the archive's root may add before it). */
  find(suffix: string): ZipEntry | undefined {
    const exact = this.entries.get(suffix);
    if (exact) return exact;
    for (const [name, entry] of this.entries) if (name.endsWith(`/${suffix}`)) return entry;
    return undefined;
  }

  /** An entry's bytes, refused when it would be larger than `maxBytes`. */
  async read(entry: ZipEntry, maxBytes: number): Promise<Buffer> {
    if (entry.encrypted) throw new ZipError('encrypted entry');
    if (entry.size > maxBytes) throw new ZipError('entry too large');
    const header = await readAt(this.file, entry.offset, 30);
    if (header.readUInt32LE(0) !== LOCAL) throw new ZipError('bad entry');
    const start = entry.offset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
    const data = await readAt(this.file, start, entry.compressedSize);
    if (entry.method === 0) return data;
    if (entry.method !== 8) throw new ZipError('unsupported compression');
    try {
      const out = inflateRawSync(data, { maxOutputLength: Math.max(1, entry.size) });
      if (out.length !== entry.size) throw new ZipError('bad entry');
      return out;
    } catch (error) {
      throw error instanceof ZipError ? error : new ZipError('bad entry');
    }
  }

  close(): Promise<void> {
    return this.file.close();
  }
}
