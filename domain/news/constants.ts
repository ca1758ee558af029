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

/** The zone an event's times are read in, by where it takes place (decision 056). */
export const EVENT_TIME_ZONES: Record<EventLocation, string> = {
  hk: 'Asia/Hong_Kong',
  canada: 'America/Vancouver',
};

/**
 * The region code the apps' installations report (`appDevices.region`) for each market a news item
 * is for: an item's push notification goes to the devices of its market (decision 059).
 */
export const NEWS_REGION_DEVICE_REGIONS: Record<NewsRegion, string> = { hk: 'hk', sg: 'sg', canada: 'ca' };

/** An event's registrants are reminded at this hour on the event's own clock, the day before it starts. */
export const EVENT_REMINDER_HOUR = 10;

/**
 * Where a news item's Facebook post stands (decision 059): none asked (empty), `pending` (queued,
 * or waiting for the item's window to open, or for its next try), `posting` (a try is under way),
 * `posted` (its id kept), `failed` (the error kept; staff post it again from the item's row).
 */
export const FACEBOOK_POST_STATES = ['pending', 'posting', 'posted', 'failed'] as const;
export type FacebookPostState = (typeof FACEBOOK_POST_STATES)[number];
