import { describe, expect, it } from 'vitest';
import { formatBytes } from './sizes.ts';

describe('formatBytes', () => {
  it('keeps bytes up to 512 and switches above', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(513)).toBe('0.5 KB');
    expect(formatBytes(1024)).toBe('1 KB');
  });

  it('switches each unit above 512 of it', () => {
    expect(formatBytes(512 * 1024)).toBe('512 KB');
    expect(formatBytes(512 * 1024 + 1024)).toBe('0.5 MB');
    expect(formatBytes(20 * 1024 * 1024)).toBe('20 MB');
    expect(formatBytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
    expect(formatBytes(700 * 1024 * 1024)).toBe('0.7 GB');
  });

  it('writes numbers as the language does', () => {
    expect(formatBytes(1_234_567_890_123_456)).toMatch(/TB$/);
    expect(formatBytes(1.5 * 1024, 'zh-hk')).toBe('1.5 KB');
    expect(formatBytes(-5)).toBe('0 B');
  });
});
