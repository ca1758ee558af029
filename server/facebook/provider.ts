/*
 * How a news item reaches the company's Facebook page (decision 059): one interface, two
 * providers. The Graph API when the page and its token are configured (graph.ts), and a local
 * provider by default and in tests that records each post (local.ts). The posting job decides
 * what to post and when to try again; a provider only posts and says how it went.
 */

/** A picture posted with the text: the item's image, as JPEG bytes. */
export interface FacebookPhoto {
  bytes: Buffer;
  mime: string;
  filename: string;
}

/** One post to the page. */
export interface FacebookPost {
  /** The post's text. */
  message: string;
  /** The address the post links to (the item's page). */
  link: string;
  /** With a picture, the post is a photo whose caption is the text and the link. */
  photo?: FacebookPhoto | undefined;
}

/**
 * Why a post was not made. `retry`: a passing failure (a rate limit, Facebook's own trouble, the
 * network) that a later try may get past; otherwise Facebook refused it (an expired token, a
 * missing permission, a post it will never take) and trying again changes nothing.
 */
export class FacebookError extends Error {
  readonly retry: boolean;
  /** Facebook's error code, when it gave one. */
  readonly code: number | undefined;

  constructor(message: string, options: { retry: boolean; code?: number | undefined }) {
    super(message);
    this.name = 'FacebookError';
    this.retry = options.retry;
    this.code = options.code;
  }
}

export interface FacebookProvider {
  readonly name: 'graph' | 'local';
  /** Posts to the page and answers the post's id (`{page}_{post}`); throws a FacebookError when it was not posted. */
  post(post: FacebookPost): Promise<{ postId: string }>;
}
