import { describe, expect, it } from 'vitest';
import { extentWithZero, linearScale, signedPercent } from './scale';

describe('linearScale', () => {
  it('maps the ends of the domain onto the ends of the range, and values between in proportion', () => {
    const x = linearScale([0, 200], [0, 300]);
    expect(x(0)).toBe(0);
    expect(x(200)).toBe(300);
    expect(x(100)).toBe(150);
  });

  it('handles a domain across zero and a reversed range', () => {
    const x = linearScale([-50, 30], [40, 360]);
    expect(x(0)).toBe(240);
    expect(x(-50)).toBe(40);
    const y = linearScale([0, 10], [100, 0]);
    expect(y(10)).toBe(0);
  });

  it('puts everything at the start of the range when the domain is empty', () => {
    expect(linearScale([5, 5], [10, 90])(5)).toBe(10);
  });
});

describe('extentWithZero', () => {
  it('rounds out to whole steps and always includes zero', () => {
    expect(extentWithZero([-50, -10, 20, 27])).toEqual([-50, 30]);
    expect(extentWithZero([9, 45])).toEqual([0, 50]);
    expect(extentWithZero([-3], 5)).toEqual([-5, 0]);
    expect(extentWithZero([1, 2], 1)).toEqual([0, 2]);
  });

  it('gives an empty or all-zero chart one step to draw in', () => {
    expect(extentWithZero([])).toEqual([0, 10]);
    expect(extentWithZero([0, 0])).toEqual([0, 10]);
  });
});

describe('signedPercent', () => {
  it('shows the sign of a change', () => {
    expect(signedPercent(27, 'en')).toBe('+27%');
    expect(signedPercent(-10, 'zh-hk')).toBe('\u221210%');
    expect(signedPercent(0, 'zh-cn')).toBe('0%');
    expect(signedPercent(1200, 'en')).toBe('+1,200%');
  });
});
