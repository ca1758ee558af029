import { RouterContextProvider, UNSAFE_ErrorResponseImpl as ErrorResponse } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { handleError } from './entry.server';
import { serverContext, type ServerContext } from './context';

function requestContext() {
  const log = { error: vi.fn() };
  const context = new RouterContextProvider();
  context.set(serverContext, { log } as unknown as ServerContext);
  return { log, context };
}

describe('handleError', () => {
  it('logs a failed loader with its method and path on the request logger', () => {
    const { log, context } = requestContext();
    const error = new Error('database timed out');
    handleError(error, { request: new Request('http://localhost/zh-cn/enquiryForm?x=1'), params: {}, context });
    expect(log.error).toHaveBeenCalledWith(
      { err: error, method: 'GET', url: '/zh-cn/enquiryForm' },
      'page request failed',
    );
  });

  it('ignores a request the visitor abandoned', () => {
    const { log, context } = requestContext();
    const controller = new AbortController();
    controller.abort();
    handleError(new Error('aborted'), {
      request: new Request('http://localhost/en', { signal: controller.signal }),
      params: {},
      context,
    });
    expect(log.error).not.toHaveBeenCalled();
  });

  it('ignores answers below 500, such as a thrown 404', () => {
    const { log, context } = requestContext();
    const notFound = new ErrorResponse(404, 'Not Found', null);
    handleError(notFound, { request: new Request('http://localhost/en/nothing'), params: {}, context });
    expect(log.error).not.toHaveBeenCalled();
  });
});
