import { describe, expect, it } from 'vitest';
import { newId, RECORD_ID } from './ids.ts';

describe('record ids', () => {
  it('every id the server makes is written as a record id', () => {
    for (let i = 0; i < 200; i++) expect(newId()).toMatch(RECORD_ID);
  });

  it('takes letters, digits, _ and - up to 64, nothing else', () => {
    expect(RECORD_ID.test('a'.repeat(64))).toBe(true);
    expect(RECORD_ID.test('Ab_9-')).toBe(true);
    expect(RECORD_ID.test('')).toBe(false);
    expect(RECORD_ID.test('a'.repeat(65))).toBe(false);
    for (const bad of ['../x', 'a b', 'a.b', 'a/b', 'a\n', '{"$ne":1}']) expect(RECORD_ID.test(bad)).toBe(false);
  });
});
