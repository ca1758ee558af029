import type { FacebookPost, FacebookProvider } from './provider.ts';

/** A post as the local provider recorded it. */
export interface RecordedFacebookPost extends FacebookPost {
  postId: string;
  at: Date;
}

/**
 * The provider of a server without a Facebook page configured (development, tests, a demo): it
 * posts nothing and records each post in memory (the newest `keep`), which tests and the
 * development log read. Its ids have the Graph API's shape, `{page}_{post}`, under page `local`.
 */
export class LocalFacebookProvider implements FacebookProvider {
  readonly name = 'local';
  readonly posts: RecordedFacebookPost[] = [];
  private counter = 0;
  private readonly keep: number;

  constructor(options: { keep?: number } = {}) {
    this.keep = options.keep ?? 1000;
  }

  async post(post: FacebookPost): Promise<{ postId: string }> {
    this.counter += 1;
    const postId = `local_${this.counter}`;
    this.posts.push({ ...post, postId, at: new Date() });
    if (this.posts.length > this.keep) this.posts.splice(0, this.posts.length - this.keep);
    return { postId };
  }
}
