import type { UploadedInfo } from './upload-items';

export interface SendOptions {
  /** Called as bytes leave, 0 to 1. */
  onProgress: (progress: number) => void;
  signal?: AbortSignal;
  /** The page's language, so the server's refusal comes in it. */
  locale: string;
  /** A bearer token; without it the session cookie goes (same site only). */
  token?: string;
}

export class UploadError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

/**
 * Posts one file as multipart (field `file`) with XMLHttpRequest, the one browser API that
 * reports upload progress. Answers the server's `data.info`, or fails with its message.
 */
export function sendFile(url: string, file: File, options: SendOptions): Promise<UploadedInfo> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.responseType = 'json';
    request.setRequestHeader('x-locale', options.locale);
    if (options.token) request.setRequestHeader('authorization', `Bearer ${options.token}`);
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      const body = request.response as { data?: { info?: UploadedInfo }; message?: string } | null;
      if (request.status === 201 && body?.data?.info) return resolve(body.data.info);
      reject(new UploadError(body?.message ?? request.statusText, request.status));
    });
    request.addEventListener('error', () => reject(new UploadError('', 0)));
    request.addEventListener('abort', () => reject(new DOMException('cancelled', 'AbortError')));
    options.signal?.addEventListener('abort', () => request.abort(), { once: true });
    const form = new FormData();
    form.append('file', file, file.name);
    request.send(form);
  });
}
