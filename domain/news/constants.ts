/** What the news and their events are made of, apart from the entity (and its zod schemas) so pages import them without zod. */
export const NEWS_STATUSES = ['draft', 'published'] as const;
export type NewsStatus = (typeof NEWS_STATUSES)[number];

/** Where an event takes place (the specification's eventLocation). */
export const EVENT_LOCATIONS = ['hk', 'canada'] as const;
export type EventLocation = (typeof EVENT_LOCATIONS)[number];

/** The markets a news item is for: the apps ask for theirs. */
export const NEWS_REGIONS = ['hk', 'sg', 'canada'] as const;
export type NewsRegion = (typeof NEWS_REGIONS)[number];

/** The most news items one page of the apps' list holds. */
export const NEWS_PAGE_LIMIT = 50;
