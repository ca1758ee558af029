/**
 * What the uploads service takes and serves (decision 022): the folders files go into, the widths
 * and formats of image variants, and the types it accepts. Shared by the server and the uploader.
 */

/**
 * Folders an upload goes into (`POST /api/attachments/upload/{folder}`): names, never paths.
 * `profile` holds members' and staff's own pictures; the others are content that staff upload.
 */
export const ATTACHMENT_FOLDERS = ['profile', 'general', 'news', 'ads', 'products', 'settings', 'blogs'] as const;
export type AttachmentFolder = (typeof ATTACHMENT_FOLDERS)[number];
/** The folders only staff upload to. */
export const CONTENT_FOLDERS: readonly AttachmentFolder[] = ATTACHMENT_FOLDERS.filter((folder) => folder !== 'profile');

export function isAttachmentFolder(value: unknown): value is AttachmentFolder {
  return typeof value === 'string' && (ATTACHMENT_FOLDERS as readonly string[]).includes(value);
}

/** Image widths by name (spec: small 400, medium 800, large 1200, exlarge 2000, exlargex2 4000). */
export const IMAGE_WIDTHS = { small: 400, medium: 800, large: 1200, exlarge: 2000, exlargex2: 4000 } as const;
export type ImageWidth = keyof typeof IMAGE_WIDTHS;
export const IMAGE_FORMATS = ['webp', 'jpg'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export function isImageWidth(value: unknown): value is ImageWidth {
  return typeof value === 'string' && Object.hasOwn(IMAGE_WIDTHS, value);
}
export function isImageFormat(value: unknown): value is ImageFormat {
  return typeof value === 'string' && (IMAGE_FORMATS as readonly string[]).includes(value);
}

/** The box a thumbnail fits in (the picker's 250×150, at twice the pixels for sharp screens). */
export const THUMB_BOX = { width: 500, height: 300 } as const;

/** Image types taken, as their content shows them (magic bytes): each is decoded and re-encoded. */
export const IMAGE_MIMES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
/** Other files staff may attach (kept as sent, always downloaded, never shown inline). */
export const DOCUMENT_MIMES = ['application/pdf'] as const;
export type AcceptedMime = (typeof IMAGE_MIMES)[number] | (typeof DOCUMENT_MIMES)[number];

export function isImageMime(mime: string): mime is (typeof IMAGE_MIMES)[number] {
  return (IMAGE_MIMES as readonly string[]).includes(mime);
}

/** The URL of an image variant: `/api/attachments/{id}?width=medium&format=webp`. */
export function imageUrl(id: string, width?: ImageWidth, format?: ImageFormat): string {
  const query = new URLSearchParams();
  if (width) query.set('width', width);
  if (format) query.set('format', format);
  const search = query.toString();
  return `/api/attachments/${encodeURIComponent(id)}${search ? `?${search}` : ''}`;
}
