import nodemailer from 'nodemailer';
import type { MailSettings } from '../config.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Text files sent with it (an event's calendar file). */
  attachments?: MailAttachment[];
}

/** A text file sent with a mail. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: string;
}

/** Sends one mail or throws (the job that called it is then retried). */
export type Mailer = (mail: Mail) => Promise<void>;

/** Where the outbox mailer keeps a mail: the `outbox` service, called in-process. */
export interface OutboxStore {
  create(data: Omit<Mail, 'attachments'> & { from: string; attachments?: MailAttachment[] }): Promise<unknown>;
}

/** Milliseconds nodemailer waits to connect, for the greeting, and while the connection is idle. */
export const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 } as const;

/** Mail over SMTP when `SMTP_URL` is set, otherwise into the outbox for staff to read. */
export function createMailer(settings: MailSettings, outbox: OutboxStore): Mailer {
  if (!settings.smtpUrl) {
    return async (mail) => {
      await outbox.create({ ...mail, from: settings.from });
    };
  }
  // Timeouts well inside a job's expiry (server/jobs/queue.ts): a server that hangs fails the
  // attempt, which is retried, rather than outliving the job and racing its retry.
  const transport = nodemailer.createTransport({ url: settings.smtpUrl, ...SMTP_TIMEOUTS });
  return async (mail) => {
    await transport.sendMail({ from: settings.from, ...mail });
  };
}
