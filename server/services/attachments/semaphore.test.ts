import { describe, expect, it } from 'vitest';
import { Semaphore } from './semaphore.ts';

describe('Semaphore', () => {
  it('runs at most its limit at once, the rest in the order they came', async () => {
    const semaphore = new Semaphore(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const task = (n: number) =>
      semaphore.run(async () => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(n);
        running -= 1;
        return n;
      });
    expect(await Promise.all([1, 2, 3, 4, 5, 6].map(task))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(peak).toBe(2);
    expect(order.slice(0, 2).sort()).toEqual([1, 2]);
    expect(semaphore.load).toEqual({ active: 0, waiting: 0 });
  });

  it('frees the slot of a task that fails', async () => {
    const semaphore = new Semaphore(1);
    await expect(semaphore.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await semaphore.run(async () => 'next')).toBe('next');
  });
});
