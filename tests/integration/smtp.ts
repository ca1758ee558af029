import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';

/** A mail as the test SMTP server received it. */
export interface ReceivedMail {
  /** The envelope: MAIL FROM and RCPT TO. */
  from: string;
  to: string[];
  /** Who signed in (AUTH) to send it. */
  user: string | undefined;
  /** Header names in lower case, values unfolded and decoded. */
  headers: Record<string, string>;
  /** The plain-text and HTML parts, decoded. */
  text: string;
  html: string;
}

/** `=?UTF-8?Q?...?=` and `=?UTF-8?B?...?=` words of a header. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([\w-]+)\?([QB])\?([^?]*)\?=/gi, (_match, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i += 1) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[\dA-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Splits a MIME entity into its headers (lower-case names) and its body. */
function entity(raw: string): { headers: Record<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const head = end === -1 ? raw : raw.slice(0, end);
  const body = end === -1 ? '' : raw.slice(end + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(headers: Record<string, string>, body: string): string {
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(body)
        : body;
  return text.replace(/\r\n/g, '\n');
}

/** The text/plain and text/html parts of a message (a single part or multipart/alternative). */
function parts(headers: Record<string, string>, body: string): { text: string; html: string } {
  const found = { text: '', html: '' };
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!boundary) {
    found[type.startsWith('text/html') ? 'html' : 'text'] = decodeBody(headers, body);
    return found;
  }
  for (const chunk of body.split(`--${boundary}`).slice(1)) {
    if (chunk.startsWith('--')) break;
    const part = entity(chunk.replace(/^\r\n/, ''));
    const inner = parts(part.headers, part.body.replace(/\r\n$/, ''));
    found.text ||= inner.text;
    found.html ||= inner.html;
  }
  return found;
}

export interface TestSmtpOptions {
  /** Require AUTH with these credentials (over plain text: a test on 127.0.0.1). */
  user?: string;
  password?: string;
}

/**
 * A real SMTP server on 127.0.0.1 for the tests: it keeps what it receives, can refuse the next
 * deliveries with a temporary error (451), be stopped (the port then refuses connections) and
 * started again on the same port, or hold a delivery open before accepting it.
 */
export class TestSmtpServer {
  readonly received: ReceivedMail[] = [];
  /** Deliveries tried (each RCPT TO), refused ones included. */
  attempts = 0;
  private refusals = 0;
  private holdMs = 0;
  private server: SMTPServer | undefined;
  private port = 0;

  private readonly options: TestSmtpOptions;

  private constructor(options: TestSmtpOptions) {
    this.options = options;
  }

  static async start(options: TestSmtpOptions = {}): Promise<TestSmtpServer> {
    const smtp = new TestSmtpServer(options);
    await smtp.listen();
    return smtp;
  }

  /** The `SMTP_URL` that reaches this server. */
  get url(): string {
    const { user, password } = this.options;
    const auth = user ? `${encodeURIComponent(user)}:${encodeURIComponent(password ?? '')}@` : '';
    return `smtp://${auth}127.0.0.1:${this.port}`;
  }

  /** Answers the next `count` deliveries with `451 Try again later`. */
  refuse(count: number): void {
    this.refusals = count;
  }

  /** Waits this long after receiving a message before accepting it. */
  hold(ms: number): void {
    this.holdMs = ms;
  }

  /** The mails whose plain text contains `text`. */
  about(text: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.text.includes(text));
  }

  /** Starts listening again after `stop`, on the same port (nothing when it listens already). */
  async listen(): Promise<void> {
    if (this.server) return;
    const { user, password } = this.options;
    const server = new SMTPServer({
      logger: false,
      disableReverseLookup: true,
      // nodemailer would upgrade to TLS and refuse the self-signed certificate.
      disabledCommands: user ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
      authOptional: !user,
      allowInsecureAuth: true,
      closeTimeout: 100,
      onAuth: (auth, _session, callback) => {
        if (auth.username === user && auth.password === password) callback(null, { user: auth.username });
        else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
      },
      onRcptTo: (_address: SMTPServerAddress, _session, callback) => {
        this.attempts += 1;
        if (this.refusals > 0) {
          this.refusals -= 1;
          callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
          return;
        }
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const { headers, body } = entity(raw);
          const mail: ReceivedMail = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            user: typeof session.user === 'string' ? session.user : undefined,
            headers,
            ...parts(headers, body),
          };
          setTimeout(() => {
            this.received.push(mail);
            callback();
          }, this.holdMs);
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', () => undefined);
    this.port = (server.server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Stops listening: connections to the port are refused until `listen`. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
