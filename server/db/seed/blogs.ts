/**
 * Demo blog articles for restaurant and shop owners in Hong Kong and Singapore, in English,
 * Traditional Chinese (Hong Kong) and Simplified Chinese. Plain typed data; one file per article
 * under `blog-posts/`. Inserted by the seed when the blogs table is empty and demo data is on.
 */
import type { Knex } from 'knex';
import type { blogs } from '../../../domain/entities/blogs.ts';
import type { CreateOf } from '../../../domain/entities/types.ts';
import { sanitizeArticleHtml } from '../../services/blogs/sanitize.ts';
import { newId } from '../ids.ts';
import { acceptingPayments } from './blog-posts/accepting-payments.ts';
import { caseStudyEightStores } from './blog-posts/case-study-eight-stores.ts';
import { choosingAPos } from './blog-posts/choosing-a-pos.ts';
import { kitchenDisplaySystems } from './blog-posts/kitchen-display-systems.ts';
import { loyaltyProgrammes } from './blog-posts/loyalty-programmes.ts';
import { onlineShopUpdate } from './blog-posts/online-shop-update.ts';
import { qrSelfOrdering } from './blog-posts/qr-self-ordering.ts';
import { retailStockControl } from './blog-posts/retail-stock-control.ts';

type BlogData = CreateOf<typeof blogs>;

/** Text in all three languages: seeded articles are complete in each. */
export type Trilingual = Required<BlogData['title']>;

/**
 * A published article. Its `body` is HTML with h2 subheadings, sanitised like any other write
 * before it is stored; `publishedAt` an ISO date, Hong Kong time.
 */
export type SeedBlogPost = {
  [K in 'slug' | 'category' | 'tags' | 'author' | 'coverImage']-?: NonNullable<BlogData[K]>;
} & {
  [K in 'title' | 'summary' | 'body' | 'coverAlt']: Trilingual;
} & { publishedAt: string };

export const blogPosts: SeedBlogPost[] = [
  choosingAPos,
  qrSelfOrdering,
  kitchenDisplaySystems,
  retailStockControl,
  acceptingPayments,
  loyaltyProgrammes,
  caseStudyEightStores,
  onlineShopUpdate,
];

function sanitized(body: Trilingual): Trilingual {
  return {
    en: sanitizeArticleHtml(body.en),
    'zh-hk': sanitizeArticleHtml(body['zh-hk']),
    'zh-cn': sanitizeArticleHtml(body['zh-cn']),
  };
}

export async function seedBlogs(trx: Knex.Transaction): Promise<void> {
  for (const post of blogPosts) {
    await trx('blogs').insert({
      id: newId(),
      slug: post.slug,
      title: JSON.stringify(post.title),
      summary: JSON.stringify(post.summary),
      body: JSON.stringify(sanitized(post.body)),
      cover_image: post.coverImage,
      cover_alt: JSON.stringify(post.coverAlt),
      category: post.category,
      tags: JSON.stringify(post.tags),
      author: post.author,
      published_at: new Date(post.publishedAt),
      status: 'published',
    });
  }
}
