/**
 * A failed service call as a page's action answers it (the one error-to-answer step of every
 * action). The services' errors reach the pages already in the caller's language (the `x-locale`
 * header; server/hooks/errors.ts), so their messages are shown as they are; a fault of ours is a
 * 500 whose message is the key `errors.generic`, never the internals.
 */
export interface Refusal {
  /** The status the page answers with: the service's own 4xx, a 503 (retry later), else 500. */
  status: number;
  /** True for a 4xx: the request itself was refused, and the message says why. */
  refused: boolean;
  /** The service's message in the page's language, or `errors.generic` for a fault. */
  message: string;
  /** Per field: the service's messages, in the page's language. */
  errors: Record<string, string>;
  /** What the error carries beside its messages (a fee, seconds to wait). */
  data: Record<string, unknown>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function refusalOf(caught: unknown): Refusal {
  const error = isRecord(caught) ? caught : {};
  const code = typeof error.code === 'number' ? error.code : 0;
  const refused = code >= 400 && code < 500;
  const status = refused || code === 503 ? code : 500;
  const errors = isRecord(error.errors)
    ? Object.fromEntries(
        Object.entries(error.errors).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      )
    : {};
  const message =
    status !== 500 && typeof error.message === 'string' && error.message ? error.message : 'errors.generic';
  return { status, refused, message, errors, data: isRecord(error.data) ? error.data : {} };
}
