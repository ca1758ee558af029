import { FacebookError, type FacebookPost, type FacebookProvider } from './provider.ts';

/*
 * The Graph API (decision 059): a post with a picture is `POST {graph}/{page}/photos` (multipart:
 * the picture as `source`, the text and the link as its `caption`), one without is `POST
 * {graph}/{page}/feed` (form fields `message` and `link`). The page's access token travels in the
 * body (`access_token`), never in the address, which proxies and logs keep. No retry here: one
 * call is one try, and the posting job tries again later when the error is a passing one.
 */

export interface GraphOptions {
  /** The Graph API's address with its version (`https://graph.facebook.com/v21.0`), no trailing slash. */
  graphUrl: string;
  page: { id: string; token: string };
  /** How long one call may take before it counts as a passing failure (milliseconds). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * Error codes that pass with time: unknown and service errors (1, 2), the app's, the user's and
 * the page's rate limits (4, 17, 32, 613, 80001), the app's limit reached (341). Any other code
 * (190 an invalid or expired token, 10 and 200–299 a missing permission, 100 a bad parameter, 506 a
 * duplicate post, 368 a block for a policy) is final, unless Facebook marks it `is_transient`.
 */
const PASSING_CODES = new Set([1, 2, 4, 17, 32, 341, 613, 80001]);

interface GraphErrorBody {
  error?: { message?: unknown; type?: unknown; code?: unknown; error_subcode?: unknown; is_transient?: unknown };
}

/** Facebook's answer to a refused call as a FacebookError, passing or final. */
export function graphError(status: number, body: unknown): FacebookError {
  const error = (body as GraphErrorBody | null)?.error;
  const code = typeof error?.code === 'number' ? error.code : undefined;
  const subcode = typeof error?.error_subcode === 'number' ? ` (subcode ${error.error_subcode})` : '';
  const said = typeof error?.message === 'string' ? error.message : `HTTP ${status}`;
  const retry =
    error?.is_transient === true ||
    (code !== undefined && PASSING_CODES.has(code)) ||
    (code === undefined && (status === 429 || status >= 500));
  const label = code === undefined ? `HTTP ${status}` : `error ${code}${subcode}`;
  return new FacebookError(`Facebook ${label}: ${said}`.slice(0, 400), { retry, code });
}

/** Failures of the connection itself, before anything was sent: Facebook has no post from it. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * A call that got no answer. One that never connected is tried again later; one cut off after
 * the request went (no answer in time, the connection dropped) may have made the post, and is
 * not: a post twice on the company's page is worse than one staff make by hand (decision 059).
 * One that could not even be made (an address fetch refuses) is final.
 */
function unanswered(error: unknown): FacebookError {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  if (code && NOT_SENT.has(code)) return new FacebookError(`Facebook could not be reached (${code})`, { retry: true });
  const timedOut = (error as { name?: unknown } | null)?.name === 'TimeoutError';
  if (timedOut || code) {
    const reason = timedOut ? 'no answer in time' : code;
    const said = `Facebook’s answer was lost (${reason}): the post may have been made. Look at the page before posting it again.`;
    return new FacebookError(said, { retry: false });
  }
  const reason = typeof cause?.message === 'string' ? cause.message : String((error as Error | null)?.message);
  return new FacebookError(`Facebook could not be called: ${reason}`.slice(0, 400), { retry: false });
}

export class GraphFacebookProvider implements FacebookProvider {
  readonly name = 'graph';
  private readonly options: Required<Omit<GraphOptions, 'fetch'>> & { fetch: typeof fetch };

  constructor(options: GraphOptions) {
    this.options = { timeoutMs: 60_000, ...options, fetch: options.fetch ?? fetch };
  }

  async post(post: FacebookPost): Promise<{ postId: string }> {
    const { graphUrl, page } = this.options;
    const base = `${graphUrl}/${encodeURIComponent(page.id)}`;
    let url: string;
    let body: FormData | URLSearchParams;
    if (post.photo) {
      url = `${base}/photos`;
      const form = new FormData();
      form.set('caption', `${post.message}\n\n${post.link}`);
      form.set('published', 'true');
      form.set('access_token', page.token);
      form.set('source', new Blob([new Uint8Array(post.photo.bytes)], { type: post.photo.mime }), post.photo.filename);
      body = form;
    } else {
      url = `${base}/feed`;
      body = new URLSearchParams({ message: post.message, link: post.link, access_token: page.token });
    }
    let response: Response;
    try {
      response = await this.options.fetch(url, {
        method: 'POST',
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      throw unanswered(error);
    }
    const answer = (await response.json().catch(() => null)) as { id?: unknown; post_id?: unknown } | null;
    if (!response.ok) throw graphError(response.status, answer);
    // A photo answers its own id and its post's; a feed post its post's id.
    const postId = typeof answer?.post_id === 'string' ? answer.post_id : answer?.id;
    if (typeof postId !== 'string' || postId === '')
      throw new FacebookError(`Facebook answered ${response.status} without a post id`, { retry: false });
    return { postId };
  }
}
