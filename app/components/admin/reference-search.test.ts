import { describe, expect, it } from 'vitest';
import { referenceQuery, REFERENCE_RESULTS } from './reference-search';

describe('a reference’s search', () => {
  it('asks the related entity for the names of at most a page of records matching the text in its search fields', () => {
    const query = referenceQuery('users', ' wing ');
    expect(query).toMatchObject({ $select: ['_id', 'email'], $limit: REFERENCE_RESULTS });
    expect(query?.$or).toEqual(
      ['email', 'name', 'firstName', 'lastName', 'companyName', 'phone'].map((field) => ({
        [field]: { $regex: 'wing', $options: 'i' },
      })),
    );
  });

  it('matches the text literally', () => {
    const first = (referenceQuery('users', 'a.b+c')?.$or as Record<string, unknown>[])[0];
    expect(first).toEqual({ email: { $regex: String.raw`a\.b\+c`, $options: 'i' } });
  });

  it('lists the first records when nothing is typed', () => {
    expect(referenceQuery('industries', '')).toEqual({ $select: ['_id', 'name'], $limit: REFERENCE_RESULTS });
  });

  it('asks nothing of an entity the back office has no screen for', () => {
    expect(referenceQuery('nothing', 'x')).toBeNull();
  });
});
