import { describe, expect, it } from 'vitest';
import { isAbort } from './overtaken-navigation';

describe('an overtaken navigation', () => {
  it('is recognised by the abort of its signal, whatever the engine calls it', () => {
    const controller = new AbortController();
    controller.abort();
    expect(isAbort(controller.signal.reason)).toBe(true);
    expect(isAbort(new DOMException('The operation was aborted.', 'AbortError'))).toBe(true);
  });

  it('leaves every other rejection alone', () => {
    expect(isAbort(new Error('Something else'))).toBe(false);
    expect(isAbort(new TypeError('Failed to fetch'))).toBe(false);
    expect(isAbort('AbortError')).toBe(false);
    expect(isAbort(null)).toBe(false);
    expect(isAbort(undefined)).toBe(false);
  });
});
