import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the fake Graph API received it: its form fields and files, parsed. */
export interface GraphRequest {
  method: string;
  path: string;
  contentType: string;
  /** Text fields of the form (`message`, `link`, `caption`, `access_token`). */
  fields: Record<string, string>;
  /** Files of a multipart form, by field name. */
  files: Record<string, { type: string; name: string; size: number }>;
}

/** What the fake answers one request with. */
export interface GraphAnswer {
  status: number;
  body: unknown;
  /** Answered this long after the request came (a Facebook slower than the caller waits). */
  delayMs?: number;
}

/**
 * A stand-in for the Graph API on a free local port (never the real Facebook): it records every
 * request and answers the next scripted answer, else a post's id as the Graph API gives it
 * (`/feed`: `{id}`; `/photos`: `{id, post_id}`).
 */
export class FakeGraph {
  readonly requests: GraphRequest[] = [];
  private readonly answers: GraphAnswer[] = [];
  private server: Server | undefined;
  private posted = 0;
  url = '';

  /** The next requests are answered these, in order. */
  answerNext(...answers: GraphAnswer[]): void {
    this.answers.push(...answers);
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        void (async () => {
          const contentType = req.headers['content-type'] ?? '';
          const parsed = await new Request('http://fake.test/', {
            method: 'POST',
            headers: { 'content-type': contentType },
            body: Buffer.concat(chunks),
          })
            .formData()
            .catch(() => new FormData());
          const fields: Record<string, string> = {};
          const files: GraphRequest['files'] = {};
          for (const [name, value] of parsed.entries()) {
            if (typeof value === 'string') fields[name] = value;
            else files[name] = { type: value.type, name: value.name, size: value.size };
          }
          const path = req.url ?? '';
          this.requests.push({ method: req.method ?? '', path, contentType, fields, files });
          const scripted = this.answers.shift();
          this.posted += 1;
          const page = path.split('/').at(-2) ?? 'page';
          const answer = scripted ?? {
            status: 200,
            body: path.endsWith('/photos')
              ? { id: `photo${this.posted}`, post_id: `${page}_${this.posted}` }
              : { id: `${page}_${this.posted}` },
          };
          if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
        })();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v21.0`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** The Graph API's error answer, as Facebook writes it. */
export function graphErrorBody(code: number, message: string, extra: Record<string, unknown> = {}): unknown {
  return { error: { message, type: 'OAuthException', code, fbtrace_id: 'AbCdEf', ...extra } };
}
