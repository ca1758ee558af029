import { describe, expect, it } from 'vitest';
import { createAccessLogger, createLogger, loggableUrl } from './logging.ts';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJlLXZhbHVl';

describe('loggableUrl', () => {
  it.each([
    ['/api/users?access_token=abc&$limit=1', '/api/users?access_token=[redacted]&$limit=1'],
    ['/en/reset?token=abc', '/en/reset?token=[redacted]'],
    ['/callback?code=918273&state=xyz', '/callback?code=[redacted]&state=xyz'],
    [
      '/x?accessToken=a&refresh_token=b&password=c&client_secret=d&jwt=e',
      '/x?accessToken=[redacted]&refresh_token=[redacted]&password=[redacted]&client_secret=[redacted]&jwt=[redacted]',
    ],
    // The name may be percent-encoded or in another case; an empty value stays marked too.
    ['/x?%74oken=abc&TOKEN=def&token', '/x?%74oken=[redacted]&TOKEN=[redacted]&token=[redacted]'],
    [`/api/authentication/${JWT}`, '/api/authentication/[redacted]'],
    [`/x?next=/a/${JWT}/b`, '/x?next=/a/[redacted]/b'],
  ])('hides the secret in %s', (url, expected) => {
    expect(loggableUrl(url)).toBe(expected);
  });

  it('leaves other URLs as they are', () => {
    const urls = ['/en/pricing?industry=restaurant&plan=flexi', '/api/appTemplates?key=restaurant-flexi'];
    for (const url of [...urls, '/zh-hk/blogs/%E6%B5%81', '/health', '/x?a=%E0%A4%A']) {
      expect(loggableUrl(url)).toBe(url);
    }
  });
});

describe('createLogger', () => {
  it('redacts secret keys in any logged object, two levels down, and keeps the rest', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    logger.info(
      {
        password: 'p1',
        user: { email: 'a@example.test', password: 'p2', accessToken: 't1' },
        req: { headers: { authorization: 'Bearer t2', cookie: 'tp_session=t3', host: 'example.test' } },
        res: { headers: { 'set-cookie': 'tp_session=t4' } },
        err: { data: { token: 't5' } },
      },
      'something happened',
    );
    const line = lines.join('');
    for (const secret of ['p1', 'p2', 't1', 't2', 't3', 't4', 't5']) expect(line).not.toContain(`"${secret}"`);
    expect(JSON.parse(line)).toMatchObject({
      msg: 'something happened',
      user: { email: 'a@example.test', password: '[redacted]' },
      req: { headers: { host: 'example.test' } },
    });
  });
});

describe('createAccessLogger', () => {
  it('writes to the same output at the same level, keeping of a request, an answer and an error only what its serializers name', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    const access = createAccessLogger(logger);
    access.debug('not at info');
    const err = Object.assign(new Error('refused'), { data: { password: 'p1' }, config: { token: 't1' } });
    access.info(
      {
        req: { id: 'r1', method: 'GET', url: '/api/users?token=t2', headers: { authorization: 'Bearer t3' } },
        res: { statusCode: 500, headers: { 'set-cookie': 't4' } },
        err,
      },
      'request errored',
    );
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    for (const secret of ['p1', 't1', 't2', 't3', 't4']) expect(line).not.toContain(secret);
    expect(JSON.parse(line)).toMatchObject({
      level: 30,
      msg: 'request errored',
      req: { id: 'r1', method: 'GET', url: '/api/users?token=[redacted]' },
      res: { statusCode: 500 },
      err: { type: 'Error', message: 'refused' },
    });
    expect(Object.keys(JSON.parse(line).err as object).sort()).toEqual(['message', 'stack', 'type']);
  });
});
