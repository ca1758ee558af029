import type { APIRequestContext } from '@playwright/test';
import { expect } from './fixtures.ts';
import { asAdmin } from './staff-api.ts';

/** The newest verification mail sent to an address, read from the outbox as staff would. */
export async function verificationMail(request: APIRequestContext, email: string): Promise<string> {
  let text = '';
  await expect
    .poll(
      async () => {
        const { data } = await asAdmin(request, `outbox?to=${encodeURIComponent(email)}&$sort[createdAt]=-1&$limit=1`);
        text = String(data[0]?.text ?? '');
        return /\b\d{6}\b/.test(text);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return text;
}

/** The 6-digit code of the newest verification mail to an address. */
export async function verificationCode(request: APIRequestContext, email: string): Promise<string> {
  return /\b(\d{6})\b/.exec(await verificationMail(request, email))![1]!;
}
