import { describe, expect, it } from 'vitest';
import { checkHealth } from './health.ts';

const never = () => new Promise<never>(() => undefined);

describe('checkHealth', () => {
  it('is ok when every part answers, each with its latency', async () => {
    const { report, errors } = await checkHealth('web-1', { database: async () => 1, jobs: async () => 2 });
    expect(report).toMatchObject({
      status: 'ok',
      instance: 'web-1',
      database: { status: 'ok', latencyMs: expect.any(Number) },
      jobs: { status: 'ok' },
    });
    expect(errors).toEqual({});
  });

  it('reports each part on its own: one that fails or never answers is down within the timeout, the others are not held up', async () => {
    const started = performance.now();
    const refused = new Error('connect ECONNREFUSED 10.0.0.5:6379');
    const { report, errors } = await checkHealth(
      'web-1',
      { database: async () => 1, redis: never, jobs: () => Promise.reject(refused) },
      100,
    );
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(report).toMatchObject({
      status: 'unavailable',
      database: { status: 'ok' },
      redis: { status: 'down' },
      jobs: { status: 'down' },
    });
    expect((report.redis as { latencyMs: number }).latencyMs).toBeGreaterThanOrEqual(90);
    // Why is for the log only: the report (public) names no internal address.
    expect(errors.jobs).toBe(refused);
    expect(JSON.stringify(report)).not.toContain('10.0.0.5');
  });
});
