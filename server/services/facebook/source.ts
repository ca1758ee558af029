import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  ExportRefused,
  FACEBOOK_LIMITS,
  readExportPosts,
  readGraphPage,
  type FacebookPicture,
  type FacebookPost,
} from '../../../domain/facebook/posts.ts';
import type { FacebookSettings } from '../../config.ts';
import { ZipError, ZipReader } from './zip.ts';

/** The largest posts file read from an export (the JSON of tens of thousands of posts). */
const MAX_POSTS_JSON_BYTES = 64 * 1024 * 1024;
/** The most pages of the Graph API read in one import (100 posts a page). */
const MAX_GRAPH_PAGES = FACEBOOK_LIMITS.posts / 100;
/** How long one request to Facebook (a page of posts, a picture) may take. */
const FETCH_TIMEOUT_MS = 30_000;

/** The pictures a post may carry: the export's videos and other files are left out. */
const PICTURE = /\.(jpe?g|png|webp|gif)$/i;

/** Where a post's pictures are read from. */
export interface PictureSource {
  /** A picture's bytes into a temporary file, or null when it is not there (refused for its size too). */
  fetch(picture: FacebookPicture, into: string, maxBytes: number): Promise<boolean>;
  close(): Promise<void>;
}

/** An export read for its posts, and the pictures of them. */
export interface ReadExport {
  posts: FacebookPost[];
  pictures: PictureSource;
}

const isZip = async (file: string): Promise<boolean> => {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    return head.readUInt32LE(0) === 0x04034b50;
  } finally {
    await handle.close();
  }
};

/** A picture at an address (the Graph API's, an export that names them by URL): fetched within the limit. */
async function download(url: string, into: string, maxBytes: number): Promise<boolean> {
  if (!/^https?:\/\//i.test(url)) return false;
  const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'follow' });
  if (!response.ok || !response.body) return false;
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) return false;
  let size = 0;
  const limited = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  limited.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) limited.destroy(new Error('too large'));
  });
  try {
    await pipeline(limited, createWriteStream(into));
    return true;
  } catch {
    await rm(into, { force: true });
    return false;
  }
}

const byAddress: PictureSource = {
  fetch: (picture, into, maxBytes) => download(picture.uri, into, maxBytes),
  close: async () => undefined,
};

/** Whether a picture of an export is one the import takes (a picture, not a video). */
export const isPicture = (picture: FacebookPicture): boolean =>
  PICTURE.test(picture.uri.split('?')[0] ?? '') || /^https?:\/\//i.test(picture.uri);

/**
 * Reads an export as uploaded: the posts JSON alone (`your_posts_1.json`), whose pictures are
 * read only when it names them by address, or the ZIP archive Facebook gives, whose
 * `posts/your_posts_*.json` are read together and whose pictures are read from the archive.
 * A file that is neither is refused (`ExportRefused`).
 */
export async function readExport(file: string): Promise<ReadExport> {
  if (!(await isZip(file))) {
    const bytes = await readFile(file);
    if (bytes.length > MAX_POSTS_JSON_BYTES) throw new ExportRefused('tooMany');
    return { posts: readExportPosts(bytes.toString('utf8')), pictures: byAddress };
  }
  let zip: ZipReader;
  try {
    zip = await ZipReader.open(file);
  } catch (error) {
    if (error instanceof ZipError) throw new ExportRefused('badArchive');
    throw error;
  }
  try {
    const files = [...zip.entries.values()]
      .filter((entry) => /(^|\/)your_posts(_\d+)?\.json$/.test(entry.name))
      .sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
    if (files.length === 0) throw new ExportRefused('noPostsFile');
    const posts: FacebookPost[] = [];
    for (const entry of files) {
      const bytes = await zip.read(entry, MAX_POSTS_JSON_BYTES).catch((error: unknown) => {
        throw error instanceof ZipError ? new ExportRefused('badArchive') : error;
      });
      posts.push(...readExportPosts(bytes.toString('utf8')));
    }
    if (posts.length > FACEBOOK_LIMITS.posts) throw new ExportRefused('tooMany');
    const unique = [...new Map(posts.map((post) => [post.sourceId, post])).values()];
    unique.sort((a, b) => a.time.localeCompare(b.time));
    const pictures: PictureSource = {
      async fetch(picture, into, maxBytes) {
        if (/^https?:\/\//i.test(picture.uri)) return download(picture.uri, into, maxBytes);
        const entry = zip.find(picture.uri.replace(/^\/+/, ''));
        if (!entry || entry.size > maxBytes) return false;
        await writeFile(into, await zip.read(entry, maxBytes));
        return true;
      },
      close: () => zip.close(),
    };
    return { posts: unique, pictures };
  } catch (error) {
    await zip.close();
    throw error;
  }
}

/**
 * Whether the page's posts may be read from the Graph API: a page and its token are configured,
 * and the Graph API is Facebook's only where the configuration chose it (never under tests, whose
 * Graph API is a fake server on another address).
 */
export function graphImportAvailable(settings: FacebookSettings): boolean {
  if (!settings.page) return false;
  return settings.provider === 'graph' || !/(^|\.)facebook\.com$/.test(new URL(settings.graphUrl).hostname);
}

/** Why the Graph API could not be read: a message key under `facebook.errors`. */
export class GraphUnavailable extends Error {
  readonly key = 'facebook.errors.graphUnavailable';
}

/**
 * The page's posts from the Graph API, page by page (`paging.next`, on the Graph API's own host
 * only, so the token never goes elsewhere), oldest first.
 */
export async function readGraph(settings: FacebookSettings): Promise<ReadExport> {
  const page = settings.page;
  if (!page || !graphImportAvailable(settings)) throw new GraphUnavailable('no page configured');
  const fields = 'id,message,created_time,full_picture,attachments{media,subattachments,type,url}';
  const origin = new URL(settings.graphUrl).origin;
  let next: string | null =
    `${settings.graphUrl}/${encodeURIComponent(page.id)}/posts?` + new URLSearchParams({ fields, limit: '100' });
  const posts: FacebookPost[] = [];
  for (let pages = 0; next && pages < MAX_GRAPH_PAGES; pages += 1) {
    if (new URL(next).origin !== origin) break;
    let json: unknown;
    try {
      const response = await fetch(next, {
        headers: { authorization: `Bearer ${page.token}`, accept: 'application/json' },
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
      if (!response.ok) throw new GraphUnavailable(`Graph API answered ${response.status}`);
      json = await response.json();
    } catch (error) {
      throw error instanceof GraphUnavailable ? error : new GraphUnavailable(String(error));
    }
    const read = readGraphPage(json);
    posts.push(...read.posts);
    next = read.next;
  }
  const unique = [...new Map(posts.map((post) => [post.sourceId, post])).values()];
  unique.sort((a, b) => a.time.localeCompare(b.time));
  return { posts: unique, pictures: byAddress };
}

/** A new temporary file's path in a folder (made when missing). */
export async function temporaryFile(folder: string, suffix: string): Promise<string> {
  await mkdir(folder, { recursive: true });
  return path.join(folder, `${randomBytes(12).toString('hex')}${suffix}`);
}
