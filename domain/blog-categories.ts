/** The blog's categories. Kept apart from the entity (and its zod schemas) so pages import them without zod. */
export const BLOG_CATEGORIES = ['restaurant-tips', 'retail-tips', 'payments', 'product-news', 'case-studies'] as const;
export type BlogCategory = (typeof BLOG_CATEGORIES)[number];
