import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeGraph, graphErrorBody } from '../../tests/fake-graph.ts';
import { GraphFacebookProvider, graphError } from './graph.ts';
import { FacebookError } from './provider.ts';

/**
 * The Graph API provider (decision 059) against a local stand-in for Facebook: what it sends (the
 * page's path, the token in the body and never in the address, the text, the link, the picture),
 * what it answers, and which of Facebook's refusals are passing and which final.
 */

const page = { id: '104220000000001', token: 'EAAB-page-token' };

describe('the Graph API provider', () => {
  let graph: FakeGraph;
  let provider: GraphFacebookProvider;

  beforeAll(async () => {
    graph = await new FakeGraph().start();
  });
  afterAll(async () => {
    await graph.stop();
  });
  beforeEach(() => {
    graph.requests.length = 0;
    provider = new GraphFacebookProvider({ graphUrl: graph.url, page });
  });

  it('posts text and a link to the page’s feed, the token in the body', async () => {
    const { postId } = await provider.post({
      message: 'Pickup orders\n\nOrder ahead in the app.',
      link: 'https://tillpoint.example/en/news/abc',
    });
    expect(postId).toBe(`${page.id}_1`);
    expect(graph.requests).toHaveLength(1);
    const [request] = graph.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe(`/v21.0/${page.id}/feed`);
    expect(request?.path).not.toContain(page.token);
    expect(request?.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(request?.fields).toEqual({
      message: 'Pickup orders\n\nOrder ahead in the app.',
      link: 'https://tillpoint.example/en/news/abc',
      access_token: page.token,
    });
  });

  it('posts a picture as a photo whose caption is the text and the link, answering the post’s id', async () => {
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]);
    const { postId } = await provider.post({
      message: 'Workshop',
      link: 'https://tillpoint.example/en/news/xyz',
      photo: { bytes, mime: 'image/jpeg', filename: 'xyz.jpg' },
    });
    const [request] = graph.requests;
    expect(request?.path).toBe(`/v21.0/${page.id}/photos`);
    expect(request?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    // A multipart form writes its text fields' line breaks as CRLF (as a browser does).
    expect(request?.fields).toEqual({
      caption: 'Workshop\r\n\r\nhttps://tillpoint.example/en/news/xyz',
      published: 'true',
      access_token: page.token,
    });
    expect(request?.files.source).toEqual({ type: 'image/jpeg', name: 'xyz.jpg', size: bytes.length });
    // The photo's post, not the photo itself.
    expect(postId).toMatch(new RegExp(`^${page.id}_\\d+$`));
  });

  it('takes rate limits and Facebook’s own trouble for passing, a bad token or permission for final', async () => {
    const refused = async (status: number, body: unknown) => {
      graph.answerNext({ status, body });
      const error = await provider
        .post({ message: 'm', link: 'https://x.example/' })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(FacebookError);
      return error as FacebookError;
    };
    const limited = await refused(400, graphErrorBody(613, 'Calls to this api have exceeded the rate limit.'));
    expect(limited).toMatchObject({ retry: true, code: 613 });
    expect(limited.message).toBe('Facebook error 613: Calls to this api have exceeded the rate limit.');
    expect((await refused(400, graphErrorBody(32, 'Page request limit reached'))).retry).toBe(true);
    expect((await refused(400, graphErrorBody(80001, 'There have been too many calls to this Page'))).retry).toBe(true);
    expect((await refused(500, graphErrorBody(2, 'Service temporarily unavailable'))).retry).toBe(true);
    expect((await refused(503, '<html>upstream</html>')).message).toBe('Facebook HTTP 503: HTTP 503');
    expect((await refused(503, '<html>upstream</html>')).retry).toBe(true);
    const token = await refused(
      400,
      graphErrorBody(190, 'Error validating access token: Session has expired.', { error_subcode: 463 }),
    );
    expect(token).toMatchObject({ retry: false, code: 190 });
    expect(token.message).toBe('Facebook error 190 (subcode 463): Error validating access token: Session has expired.');
    expect((await refused(403, graphErrorBody(200, 'Permissions error'))).retry).toBe(false);
    expect((await refused(400, graphErrorBody(506, 'Duplicate status message'))).retry).toBe(false);
    // Facebook's own word that it passes wins over the code.
    expect((await refused(400, graphErrorBody(100, 'Try again', { is_transient: true }))).retry).toBe(true);
    // An answer that names no post is not taken for one.
    const empty = await refused(200, {});
    expect(empty.retry).toBe(false);
  });

  it('tries again when Facebook could not be reached, never when its answer was lost', async () => {
    // A port nobody listens on (taken, then let go).
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = new GraphFacebookProvider({ graphUrl: `http://127.0.0.1:${port}/v21.0`, page });
    const refused = await unreachable
      .post({ message: 'm', link: 'https://x.example/' })
      .catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(FacebookError);
    expect(refused).toMatchObject({ retry: true, message: 'Facebook could not be reached (ECONNREFUSED)' });
    // Sent, and no answer in time: Facebook may have made the post.
    graph.answerNext({ status: 200, body: { id: 'late' }, delayMs: 1000 });
    const slow = new GraphFacebookProvider({ graphUrl: graph.url, page, timeoutMs: 200 });
    const lost = await slow.post({ message: 'm', link: 'https://x.example/' }).catch((caught: unknown) => caught);
    expect(lost).toBeInstanceOf(FacebookError);
    expect(lost).toMatchObject({ retry: false });
    expect((lost as Error).message).toBe(
      'Facebook’s answer was lost (no answer in time): the post may have been made. Look at the page before posting it again.',
    );
    for (const error of [refused, lost]) expect((error as Error).message).not.toContain(page.token);
  });

  it('names the error without the token', () => {
    expect(graphError(429, null)).toMatchObject({ retry: true, message: 'Facebook HTTP 429: HTTP 429' });
  });
});
