import express, { type NextFunction, type Request, type Response } from 'express';
import { sessionToken, isHttpsSite } from '../../../domain/session-cookie.ts';
import { fromOwnSite } from '../../auth/cookie.ts';
import type { Config } from '../../config.ts';
import { discard, receiveFiles } from '../attachments/receive.ts';
import type { ServerApp } from '../types.ts';
import { FACEBOOK_RULES, type FacebookUploadParams } from './facebook.ts';

/** The token of an `Authorization: Bearer …` header, if any. */
function bearerOf(req: Request): string | undefined {
  const header = req.headers.authorization;
  return typeof header === 'string' && /^Bearer\s+/i.test(header)
    ? header.replace(/^Bearer\s+/i, '').trim()
    : undefined;
}

/**
 * `POST /facebook/upload` (under /api; decision 060): staff upload a Facebook page's export (its
 * posts JSON, or the ZIP archive with its pictures), field `file`, and the import is created as
 * `create { source: 'export', region }` on the `facebook` service, as the caller (its access
 * rules apply; the caller is checked before the body is read). The region is in the query
 * (`?region=hk`). The answer is the import's record (201).
 *
 * The caller signs in with a bearer token, or with the session cookie from a page of this site (a
 * form on another site cannot upload with a visitor's cookie), as for the uploads (decision 022).
 */
export function facebookUploadRoute(app: ServerApp, config: Config): express.Router {
  const router = express.Router();
  const secureCookies = isHttpsSite(config.publicUrl);
  router.post('/facebook/upload', (req: Request, res: Response, next: NextFunction) => {
    (async () => {
      const cookie = fromOwnSite(req.headers, config.publicUrl)
        ? sessionToken(req.headers.cookie, secureCookies)
        : undefined;
      const accessToken = bearerOf(req) ?? cookie;
      const params = {
        provider: 'rest',
        headers: req.headers,
        ...(accessToken ? { authentication: { strategy: 'jwt', accessToken } } : {}),
      };
      const service = app.service('facebook');
      // Whoever may not create an import is refused before their file is read.
      await service.find({ ...params, query: { $limit: 0 } });
      const files = await receiveFiles(req, {
        maxBytes: FACEBOOK_RULES.maxUploadBytes,
        maxFiles: 1,
        tempDir: config.uploads.tempDir,
      });
      try {
        const region = typeof req.query.region === 'string' ? req.query.region : undefined;
        const record = await service.create(
          { source: 'export', ...(region ? { region } : {}) } as never,
          // The file goes in the params, which no outside call can set, never in the data.
          { ...params, facebookUpload: files[0] } satisfies FacebookUploadParams as never,
        );
        res.status(201).json(record);
      } finally {
        await discard(files);
      }
    })().catch(next);
  });
  return router;
}
