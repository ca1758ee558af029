import { randomBytes } from 'node:crypto';

/** How a record's id is written; every id `newId` makes matches it. */
export { RECORD_ID } from '../../domain/record-id.ts';

/** A 24-hex-digit id shaped like the ObjectIds existing clients know: time first, then random. */
export function newId(): string {
  const time = Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, '0');
  return time + randomBytes(8).toString('hex');
}
