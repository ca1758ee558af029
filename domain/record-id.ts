/**
 * How a record's id is written: what the server makes (`newId`, server/db/ids.ts, 24 hex digits)
 * and what it accepts from a caller. Anything else names no record of ours.
 */
export const RECORD_ID = /^[A-Za-z0-9_-]{1,64}$/;
