import { describe, expect, it } from 'vitest';
import { errorUnder, firstInvalid } from './first-invalid';

describe('the first invalid field and a field’s error', () => {
  const order = ['name', 'regions', 'currency'] as const;

  it('finds the first field in error in the form’s order, not the answer’s', () => {
    expect(firstInvalid(order, { currency: 'c', name: 'n' })).toBe('name');
    expect(firstInvalid(order, {})).toBeUndefined();
    expect(firstInvalid(order, undefined)).toBeUndefined();
  });

  it('counts a list as invalid when one of its items is', () => {
    const errors = { currency: 'c', 'regions.1.code': 'code taken' };
    expect(firstInvalid(order, errors)).toBe('regions');
    expect(errorUnder(errors, 'regions')).toBe('code taken');
  });

  it('prefers the field’s own error to its items’, and reads no other field by its prefix', () => {
    expect(errorUnder({ 'regions.0.url': 'u', regions: 'too many' }, 'regions')).toBe('too many');
    expect(errorUnder({ regionsExtra: 'x', region: 'r' }, 'regions')).toBeUndefined();
    expect(errorUnder(undefined, 'name')).toBeUndefined();
  });
});
