import { NotFound } from '@feathersjs/errors';
import express, { type NextFunction, type Request, type Response } from 'express';
import { isStaffRole } from '../hooks/row-rules.ts';
import { isHttpsSite } from '../../domain/session-cookie.ts';
import { downloadCaller, type DownloadAuthApp } from '../auth/download-caller.ts';
import type { Config } from '../config.ts';
import { exportStorageOf, type ExportsService } from '../services/exports/exports.ts';
import { CONTENT_TYPES } from '../services/exports/writers.ts';

interface AuthApp extends DownloadAuthApp {
  service(path: 'exports'): ExportsService;
  get(name: string): unknown;
}

/** Every refusal of a reachable export is the same 404: a missing one, another person's, one not done. */
const notFound = () => new NotFound('admin.notFound');

/**
 * `GET /exports/:id/download` (under /api, decision 036): a finished export's file, streamed from
 * the storage, to the staff member who asked for it or an admin. Never stored by a browser or a proxy.
 */
export function exportDownloadRoute(app: AuthApp, config: Config): express.Router {
  const router = express.Router();
  const secureCookies = isHttpsSite(config.publicUrl);
  router.get('/exports/:id/download', (req: Request, res: Response, next: NextFunction) => {
    (async () => {
      const caller = await downloadCaller(app, req, secureCookies);
      if (!isStaffRole(caller.role)) throw notFound();
      const record = await app.service('exports').read(req.params.id ?? '');
      if (record.user !== caller._id && caller.role !== 'admin') throw notFound();
      if (record.state !== 'done' || !record.fileKey) throw notFound();
      const stored = await exportStorageOf(app).get(record.fileKey);
      if (!stored) throw notFound();
      res.attachment(record.fileKey.split('/')[1] ?? `export.${record.format}`);
      res.setHeader('Content-Type', CONTENT_TYPES[record.format]);
      res.setHeader('Content-Length', String(stored.size));
      res.setHeader('Cache-Control', 'private, no-store');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      if (req.method === 'HEAD') {
        stored.body.destroy();
        res.end();
        return;
      }
      stored.body.on('error', (error) => res.destroy(error));
      stored.body.pipe(res);
    })().catch(next);
  });
  return router;
}
