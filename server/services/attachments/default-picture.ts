import { Readable } from 'node:stream';
import sharp from 'sharp';
import { IMAGE_WIDTHS, type ImageFormat, type ImageWidth } from '../../../domain/uploads/limits.ts';
import type { Media } from './media.ts';
import type { Served } from './uploads.ts';

/** A neutral silhouette on a light ground: the picture of an account that has none. */
const SILHOUETTE = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400">
<rect width="400" height="400" fill="#e5e7eb"/>
<circle cx="200" cy="160" r="72" fill="#9ca3af"/>
<path d="M64 400c0-88 61-150 136-150s136 62 136 150z" fill="#9ca3af"/>
</svg>`;

const made = new Map<string, Promise<Buffer>>();

/** The default picture at a width and format, drawn once per process and kept in memory (a few KB each). */
export async function defaultPicture(media: Media, width: ImageWidth, format: ImageFormat): Promise<Served> {
  // Square, and no larger than a picture needs to be.
  const pixels = Math.min(IMAGE_WIDTHS[width], 800);
  const key = `${pixels}.${format}`;
  let pending = made.get(key);
  if (!pending) {
    pending = sharp(Buffer.from(SILHOUETTE), { density: 72 * (pixels / 400) })
      .png()
      .toBuffer()
      .then(async (png) => (await media.resize(png, pixels, format)).body);
    made.set(key, pending);
    pending.catch(() => made.delete(key));
  }
  const body = await pending;
  return {
    body: Readable.from([body]),
    size: body.length,
    mime: format === 'webp' ? 'image/webp' : 'image/jpeg',
    variant: `w${pixels}.${format}`,
  };
}
