import { describe, expect, it } from 'vitest';
import { withSso } from './sso';

describe('withSso', () => {
  it('leaves links alone outside the embedded view', () => {
    expect(withSso('/en/portal/profile', '')).toBe('/en/portal/profile');
    expect(withSso('/en/portal', '?tab=1')).toBe('/en/portal');
  });
  it('carries a bare ?sso and a valued one', () => {
    expect(withSso('/en/portal/profile', '?sso')).toBe('/en/portal/profile?sso');
    expect(withSso('/en/portal', '?x=1&sso=app')).toBe('/en/portal?sso=app');
  });
  it('keeps the link’s own query and fragment', () => {
    expect(withSso('/en/portal?step=2#plan', '?sso')).toBe('/en/portal?step=2&sso#plan');
    expect(withSso('/en/portal?sso=1', '?sso=2')).toBe('/en/portal?sso=1');
  });
});
