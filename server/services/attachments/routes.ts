import { NotAuthenticated } from '@feathersjs/errors';
import type { Application } from '@feathersjs/feathers';
import { pipeline } from 'node:stream/promises';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { STAFF_ROLES, type Role } from '../../../domain/entities/types.ts';
import { isHttpsSite, sessionToken } from '../../../domain/session-cookie.ts';
import {
  type AttachmentFolder,
  type ImageFormat,
  isAttachmentFolder,
  isImageFormat,
  isImageMime,
  isImageWidth,
  type ImageWidth,
} from '../../../domain/uploads/limits.ts';
import { fromOwnSite } from '../../auth/cookie.ts';
import type { Config } from '../../config.ts';
import { uploadErrors } from './errors.ts';
import { defaultPicture } from './default-picture.ts';
import { discard, receiveFiles } from './receive.ts';
import type { Served, Uploads } from './uploads.ts';
import { RECORD_ID } from '../../db/ids.ts';

/** A stored variant never changes under its URL: browsers and proxies keep it a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** A profile picture's stored variants: as immutable, but only in the browser of who may see it. */
const PRIVATE_IMMUTABLE = 'private, max-age=31536000, immutable';
/** A user's picture may be replaced: kept a few minutes in its viewer's browser, then checked again (ETag). */
const PICTURE_CACHE = 'private, max-age=300';

interface Caller {
  _id: string;
  role: Role;
}

type AuthApp = Pick<Application, 'defaultAuthentication'>;

/**
 * The caller, from a bearer token, or from the session cookie when the request comes from a page
 * of this site (a form on another site cannot upload with a visitor's cookie).
 */
async function callerOf(app: AuthApp, req: Request, config: Config): Promise<Caller> {
  const cookie = fromOwnSite(req.headers, config.publicUrl)
    ? sessionToken(req.headers.cookie, isHttpsSite(config.publicUrl))
    : undefined;
  const caller = await signedIn(app, req, bearerOf(req) ?? cookie);
  if (!caller) throw new NotAuthenticated('auth.notAuthenticated');
  return caller;
}

/** The token of an `Authorization: Bearer …` header, if any. */
function bearerOf(req: Request): string | undefined {
  const header = req.headers.authorization;
  return typeof header === 'string' && /^Bearer\s+/i.test(header)
    ? header.replace(/^Bearer\s+/i, '').trim()
    : undefined;
}

/** The account a token signs in, or null without one; a refused token throws NotAuthenticated. */
async function signedIn(app: AuthApp, req: Request, accessToken: string | undefined): Promise<Caller | null> {
  const authentication = app.defaultAuthentication?.();
  if (!accessToken || !authentication) return null;
  const result = await authentication.authenticate(
    { strategy: 'jwt', accessToken },
    { provider: 'rest', headers: req.headers },
    'jwt',
  );
  const user = result.user as { _id?: unknown; role?: unknown } | undefined;
  if (typeof user?._id !== 'string' || typeof user.role !== 'string')
    throw new NotAuthenticated('auth.notAuthenticated');
  return { _id: user._id, role: user.role as Role };
}

/**
 * Who is reading a picture, or null for a visitor: a bearer token, or the session cookie from any
 * page (reading an image changes nothing, and the cookie is `SameSite=Lax`, so another site's
 * page cannot send it on an `<img>`). Older Safari sends no `Sec-Fetch-Site` on images, so the
 * upload's same-site check would hide a member's own picture there. A token that is not valid
 * any more reads as a visitor.
 */
async function readerOf(app: AuthApp, req: Request, config: Config): Promise<Caller | null> {
  try {
    return await signedIn(app, req, bearerOf(req) ?? sessionToken(req.headers.cookie, isHttpsSite(config.publicUrl)));
  } catch (error) {
    if (error instanceof NotAuthenticated) return null;
    throw error;
  }
}

/**
 * A member's picture is theirs (issue: another member's picture is not found, never shown): its
 * owner and staff see it; anyone else is answered 404, whether or not the account or file exists.
 */
function maySeePictureOf(reader: Caller | null, ownerId: string | null): boolean {
  if (!reader) return false;
  return STAFF_ROLES.includes(reader.role) || (ownerId !== null && reader._id === ownerId);
}

/** The folder an upload goes to, and whether the caller may put files there. */
function folderFor(caller: Caller, requested: string | undefined): AttachmentFolder {
  const staff = STAFF_ROLES.includes(caller.role);
  // Without a folder: staff's general content, a member's own picture.
  const folder = requested ?? (staff ? 'general' : 'profile');
  if (!isAttachmentFolder(folder)) throw uploadErrors.unknownFolder();
  if (folder !== 'profile' && !staff) throw uploadErrors.forbiddenFolder();
  return folder;
}

/** A variant's width and format from the query; `version` allows the `v` a picture's address carries (domain/uploads/picture.ts). */
function variantQuery(
  req: Request,
  { version = false } = {},
): { width: ImageWidth | undefined; format: ImageFormat | undefined } {
  const { width, format, ...others } = req.query;
  const { v, ...rest } = version ? others : { v: undefined, ...others };
  if (v !== undefined && (typeof v !== 'string' || !RECORD_ID.test(v))) throw uploadErrors.invalidVariant();
  if (Object.keys(rest).length > 0) throw uploadErrors.invalidVariant();
  if (width !== undefined && !isImageWidth(width)) throw uploadErrors.invalidVariant();
  if (format !== undefined && !isImageFormat(format)) throw uploadErrors.invalidVariant();
  return { width, format };
}

/** Sends a stored file with its validators; a request that holds the same ETag gets a 304. */
function send(
  req: Request,
  res: Response,
  served: Served,
  etag: string,
  cacheControl: string,
  download?: string,
): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('ETag', etag);
  const match = req.headers['if-none-match'];
  if (typeof match === 'string' && match.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
    served.body.destroy();
    res.status(304).end();
    return;
  }
  // The file's name, encoded for any language (RFC 5987); Express would guess a type from it: ours wins.
  if (download !== undefined) res.attachment(download);
  res.setHeader('Content-Type', served.mime);
  res.setHeader('Content-Length', String(served.size));
  if (req.method === 'HEAD') {
    served.body.destroy();
    res.end();
    return;
  }
  // A client that goes away closes the file (or the S3 response) with it.
  pipeline(served.body, res).catch(() => undefined);
}

const handle =
  (action: (req: Request, res: Response) => Promise<void>): RequestHandler =>
  (req: Request, res: Response, next: NextFunction) => {
    action(req, res).catch(next);
  };

/**
 * The uploads' HTTP routes (decision 022), mounted under /api before the JSON body parser:
 *
 * - `POST /attachments/upload` and `POST /attachments/upload/:folder`: multipart, field `file`;
 * - `GET /attachments/:id` (`?width=small|medium|large|exlarge|exlargex2&format=webp|jpg`),
 *   `GET /thumbs/:id`, `GET /attachments/:id/download`, `GET /users/pic/:id`.
 *
 * `GET /attachments/:id` asked for JSON (`Accept: application/json`), or for an id that holds no
 * file, goes on to the `attachments` service's `get`, which answers by its access rules.
 */
export function attachmentRoutes(
  app: AuthApp & { get(name: string): unknown },
  config: Config,
  uploadsOf: () => Uploads,
): express.Router {
  const router = express.Router();
  const limits = config.uploads;

  const upload = handle(async (req, res) => {
    const caller = await callerOf(app, req, config);
    const folder = folderFor(caller, req.params.folder);
    const uploads = uploadsOf();
    const files = await receiveFiles(req, {
      maxBytes: limits.maxBytes,
      maxFiles: folder === 'profile' ? 1 : limits.maxFiles,
      tempDir: limits.tempDir,
    });
    try {
      const stored = await uploads.store(files, folder, caller._id);
      res.setHeader('Cache-Control', 'no-store');
      res.status(201).json({ data: { info: stored[0], files: stored } });
    } finally {
      await discard(files);
    }
  });
  router.post('/attachments/upload', upload);
  router.post('/attachments/upload/:folder', upload);

  router.get(
    '/attachments/:id',
    handle(async (req, res) => {
      const next = () => {
        throw NEXT;
      };
      const id = req.params.id ?? '';
      // The official REST client asks for JSON; an <img>, a browser tab or a plain fetch does not.
      const accept = req.headers.accept ?? '';
      const wantsJson = accept.includes('application/json') && !accept.includes('image/');
      if (!RECORD_ID.test(id) || wantsJson) return next();
      const uploads = uploadsOf();
      const row = await uploads.find(id);
      if (!row) return next();
      const { width, format } = variantQuery(req);
      if (row.folder === 'profile') {
        if (!maySeePictureOf(await readerOf(app, req, config), row.uploaded_by)) throw uploadErrors.notFound();
        const served =
          width || format ? await uploads.variant(row, width, format ?? 'webp') : await uploads.original(row);
        return send(req, res, served, `"${row.id}.${served.variant}"`, PRIVATE_IMMUTABLE);
      }
      if (!isImageMime(row.mime)) {
        if (width || format) throw uploadErrors.notAnImage();
        return send(req, res, await uploads.original(row), `"${row.id}.original"`, IMMUTABLE, row.name);
      }
      const served =
        width || format ? await uploads.variant(row, width, format ?? 'webp') : await uploads.original(row);
      send(req, res, served, `"${row.id}.${served.variant}"`, IMMUTABLE);
    }),
  );

  router.get(
    '/attachments/:id/download',
    handle(async (req, res) => {
      const id = req.params.id ?? '';
      const uploads = uploadsOf();
      const row = RECORD_ID.test(id) ? await uploads.find(id) : null;
      if (!row) throw uploadErrors.notFound();
      const own = row.folder === 'profile';
      if (own && !maySeePictureOf(await readerOf(app, req, config), row.uploaded_by)) throw uploadErrors.notFound();
      send(
        req,
        res,
        await uploads.original(row),
        `"${row.id}.original"`,
        own ? PRIVATE_IMMUTABLE : IMMUTABLE,
        row.name,
      );
    }),
  );

  router.get(
    '/thumbs/:id',
    handle(async (req, res) => {
      const id = req.params.id ?? '';
      const uploads = uploadsOf();
      const row = RECORD_ID.test(id) ? await uploads.find(id) : null;
      if (!row) throw uploadErrors.notFound();
      const own = row.folder === 'profile';
      if (own && !maySeePictureOf(await readerOf(app, req, config), row.uploaded_by)) throw uploadErrors.notFound();
      const served = await uploads.thumb(row);
      send(req, res, served, `"${row.id}.thumb"`, own ? PRIVATE_IMMUTABLE : IMMUTABLE);
    }),
  );

  router.get(
    '/users/pic/:id',
    handle(async (req, res) => {
      const id = req.params.id ?? '';
      const { width, format } = variantQuery(req, { version: true });
      // Only its owner and staff: anyone else gets 404 for every id, so the answer tells nothing
      // about which accounts exist. An account without a picture (or staff asking for an id that
      // is no account) gets the default picture.
      if (!maySeePictureOf(await readerOf(app, req, config), id)) throw uploadErrors.notFound();
      const uploads = uploadsOf();
      const user = RECORD_ID.test(id) ? await uploads.knex('users').where('id', id).first('picture_id') : undefined;
      const picture = typeof user?.picture_id === 'string' ? await uploads.find(user.picture_id) : null;
      const size = width ?? 'small';
      if (picture) {
        const served = await uploads.variant(picture, size, format ?? 'webp');
        return send(req, res, served, `"${picture.id}.${served.variant}"`, PICTURE_CACHE);
      }
      const fallback = await defaultPicture(uploads.media, size, format ?? 'webp');
      send(req, res, fallback, `"default.${fallback.variant}"`, PICTURE_CACHE);
    }),
  );

  // `next()` out of a handler: the request belongs to the service behind these routes.
  router.use((error: unknown, _req: Request, _res: Response, next: NextFunction) =>
    error === NEXT ? next() : next(error),
  );
  return router;
}

/** Thrown by a handler to hand the request on to the next route. */
const NEXT = Symbol('next route');
