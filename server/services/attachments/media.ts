import { fileTypeFromFile } from 'file-type';
import sharp, { type Sharp } from 'sharp';
import {
  DOCUMENT_MIMES,
  type AcceptedMime,
  type ImageFormat,
  type IMAGE_MIMES,
  isImageMime,
  THUMB_BOX,
} from '../../../domain/uploads/limits.ts';
import { uploadErrors } from './errors.ts';
import { Semaphore } from './semaphore.ts';

// libvips' operation cache keeps recent images in memory: each upload is worked once, so it only
// holds memory that the queue is meant to bound.
sharp.cache(false);

/**
 * An image to work: its bytes, or how to read them. Read in the queue's turn, so requests waiting
 * their turn hold no image: memory follows the queue's width, not the number of requests.
 */
export type ImageSource = Buffer | (() => Promise<Buffer>);

/** What an image became once decoded and encoded again: the bytes served, their type and size in pixels. */
export interface EncodedImage {
  body: Buffer;
  mime: string;
  width: number;
  height: number;
}

const OUTPUT: Record<ImageFormat, { mime: string; encode: (image: Sharp) => Sharp }> = {
  webp: { mime: 'image/webp', encode: (image) => image.webp({ quality: 80 }) },
  jpg: {
    mime: 'image/jpeg',
    encode: (image) => image.flatten({ background: '#ffffff' }).jpeg({ quality: 82, mozjpeg: true }),
  },
};

/** How a kept original is encoded again: in its own format, without its metadata. */
const ORIGINAL: Record<(typeof IMAGE_MIMES)[number], (image: Sharp) => Sharp> = {
  'image/jpeg': (image) => image.jpeg({ quality: 90 }),
  'image/png': (image) => image.png(),
  'image/webp': (image) => image.webp({ quality: 90 }),
  'image/gif': (image) => image.gif(),
};

/**
 * Decoding and encoding images (sharp), a few at a time (`concurrency`), with the pixel limit
 * checked from the file's header before any decoding.
 */
export class Media {
  readonly queue: Semaphore;
  private readonly maxPixels: number;

  constructor(options: { maxPixels: number; concurrency: number }) {
    this.maxPixels = options.maxPixels;
    this.queue = new Semaphore(options.concurrency);
  }

  /**
   * The file's type from its first bytes (never its name or the browser's word); refused when not
   * one we take (`imagesOnly`: a picture, whose refusal says so).
   */
  async typeOf(file: string, options: { imagesOnly: boolean }): Promise<AcceptedMime> {
    const mime = (await fileTypeFromFile(file))?.mime;
    if (mime && isImageMime(mime)) return mime;
    if (options.imagesOnly) throw uploadErrors.imagesOnly();
    const document = DOCUMENT_MIMES.find((accepted) => accepted === mime);
    if (document) return document;
    throw uploadErrors.unsupportedType();
  }

  private open(input: string | Buffer): Sharp {
    // `failOn: 'error'`: a photo with a harmless warning (a truncated EXIF block) still opens.
    return sharp(input, { limitInputPixels: this.maxPixels, failOn: 'error', sequentialRead: true });
  }

  /** Refuses, from the header alone, an image that would decode to more than the pixel limit. */
  private async checkPixels(input: string | Buffer): Promise<void> {
    let width: number | undefined;
    let height: number | undefined;
    try {
      ({ width, height } = await sharp(input, { limitInputPixels: false }).metadata());
    } catch {
      throw uploadErrors.unreadableImage();
    }
    if (!width || !height) throw uploadErrors.unreadableImage();
    if (width * height > this.maxPixels) throw uploadErrors.tooManyPixels(this.maxPixels);
  }

  /**
   * The image to keep: decoded, turned upright, stripped of its metadata and encoded again in its
   * own format; and its thumbnail, made in the same turn of the queue (an upload done is done whole).
   */
  async original(
    file: string,
    mime: (typeof IMAGE_MIMES)[number],
  ): Promise<{ image: EncodedImage; thumb: EncodedImage }> {
    await this.checkPixels(file);
    return this.queue.run(async () => {
      let image: EncodedImage;
      try {
        const { data, info } = await ORIGINAL[mime](this.open(file).autoOrient()).toBuffer({ resolveWithObject: true });
        image = { body: data, mime, width: info.width, height: info.height };
      } catch (error) {
        if (error instanceof Error && /pixel limit/i.test(error.message))
          throw uploadErrors.tooManyPixels(this.maxPixels);
        throw uploadErrors.unreadableImage();
      }
      return { image, thumb: await this.thumbNow(image.body) };
    });
  }

  /** A variant `width` pixels wide at most (never wider than the original), in a format. */
  async resize(source: ImageSource, width: number, format: ImageFormat): Promise<EncodedImage> {
    return this.encode(source, format, (image) => image.resize({ width, withoutEnlargement: true }));
  }

  /** The thumbnail: the whole picture inside the picker's box, never enlarged. */
  async thumb(source: ImageSource): Promise<EncodedImage> {
    return this.queue.run(async () => this.thumbNow(await bytesOf(source)));
  }

  private thumbNow(source: Buffer): Promise<EncodedImage> {
    return this.encodeNow(source, 'webp', (image) =>
      image.resize({ ...THUMB_BOX, fit: 'inside', withoutEnlargement: true }),
    );
  }

  private encode(source: ImageSource, format: ImageFormat, shape: (image: Sharp) => Sharp): Promise<EncodedImage> {
    return this.queue.run(async () => this.encodeNow(await bytesOf(source), format, shape));
  }

  private async encodeNow(source: Buffer, format: ImageFormat, shape: (image: Sharp) => Sharp): Promise<EncodedImage> {
    const output = OUTPUT[format];
    const { data, info } = await output.encode(shape(this.open(source))).toBuffer({ resolveWithObject: true });
    return { body: data, mime: output.mime, width: info.width, height: info.height };
  }
}

function bytesOf(source: ImageSource): Promise<Buffer> {
  return Buffer.isBuffer(source) ? Promise.resolve(source) : source();
}
