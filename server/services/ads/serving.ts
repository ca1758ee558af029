import type { Knex } from 'knex';
import type { AdType } from '../../../domain/entities/ads.ts';
import type { I18nText } from '../../../domain/locales.ts';
import type { Candidate } from './picking.ts';

/*
 * What a pick reads, kept by each instance for less than a second (decision 057): the published
 * ads that have not expired, and every campaign's window and ads. A change to an ad or campaign
 * that matters to serving (its service event, which feathers-sync carries to every instance)
 * drops the copy at once; without one, the copy is read again when it is `MAX_AGE_MS` old (picks
 * keep using it meanwhile, up to `STALE_LIMIT_MS`), so an ad that met its target stops on every
 * instance within a second even if an event is lost.
 */

/** A copy this old is read again at the next pick. */
export const MAX_AGE_MS = 500;
/** While it is read again, picks still use the held copy up to this age; never a copy a second old. */
export const STALE_LIMIT_MS = 900;

export interface ServedAd extends Candidate {
  adType: AdType;
  name: I18nText;
  media: string | null;
  smallImage: string | null;
  targetLink: string | null;
  publish: Date | null;
  expiry: Date | null;
}

export interface ServedCampaign {
  id: string;
  key: string;
  published: boolean;
  publish: Date | null;
  expiry: Date | null;
  ads: string[];
}

export interface Eligible {
  readAt: number;
  /** Published, unexpired ads by type, in a fixed order. */
  byType: Map<AdType, ServedAd[]>;
  byId: Map<string, ServedAd>;
  campaigns: ServedCampaign[];
  byKey: Map<string, ServedCampaign>;
  /** The campaigns each ad is in, whatever their status. */
  campaignsOf: Map<string, ServedCampaign[]>;
}

/** Inside a window: publish ≤ now < expiry, an end left empty being open. */
export function inWindow(item: { publish: Date | null; expiry: Date | null }, now: Date): boolean {
  const t = now.getTime();
  return (item.publish === null || item.publish.getTime() <= t) && (item.expiry === null || t < item.expiry.getTime());
}

export function campaignLive(campaign: ServedCampaign, now: Date): boolean {
  return campaign.published && inWindow(campaign, now);
}

/**
 * Whether an ad may be shown now: inside its window, and, when it is in campaigns, one of them is
 * published and inside its own (with `campaign`, that one only, and the ad in it).
 */
export function servable(ad: ServedAd, eligible: Eligible, now: Date, campaign?: ServedCampaign): boolean {
  if (!inWindow(ad, now)) return false;
  if (campaign) return campaignLive(campaign, now) && campaign.ads.includes(ad.id);
  const of = eligible.campaignsOf.get(ad.id);
  return !of || of.some((c) => campaignLive(c, now));
}

type AdRow = {
  id: string;
  name: I18nText;
  ad_type: AdType;
  media_id: string | null;
  small_image_id: string | null;
  target_link: string | null;
  weight: number;
  probability: number;
  publish: Date | null;
  expiry: Date | null;
};

type CampaignRow = {
  id: string;
  key: string;
  status: string;
  ads: string[];
  publish: Date | null;
  expiry: Date | null;
};

export async function readEligible(knex: Knex, now: Date): Promise<Eligible> {
  const [ads, campaigns] = await Promise.all([
    knex('ads')
      .where('status', 'published')
      .andWhere((q) => q.whereNull('expiry').orWhere('expiry', '>', now))
      .orderBy('id')
      .select<AdRow[]>(
        'id',
        'name',
        'ad_type',
        'media_id',
        'small_image_id',
        'target_link',
        'weight',
        'probability',
        'publish',
        'expiry',
      ),
    knex('campaigns').select<CampaignRow[]>('id', 'key', 'status', 'ads', 'publish', 'expiry'),
  ]);
  const byType = new Map<AdType, ServedAd[]>();
  const byId = new Map<string, ServedAd>();
  for (const row of ads) {
    const ad: ServedAd = {
      id: row.id,
      adType: row.ad_type,
      name: row.name,
      media: row.media_id,
      smallImage: row.small_image_id,
      targetLink: row.target_link,
      weight: row.weight,
      probability: row.probability,
      publish: row.publish,
      expiry: row.expiry,
    };
    byId.set(ad.id, ad);
    const list = byType.get(ad.adType) ?? [];
    list.push(ad);
    byType.set(ad.adType, list);
  }
  const served: ServedCampaign[] = campaigns.map((row) => ({
    id: row.id,
    key: row.key,
    published: row.status === 'published',
    publish: row.publish,
    expiry: row.expiry,
    ads: Array.isArray(row.ads) ? row.ads : [],
  }));
  const campaignsOf = new Map<string, ServedCampaign[]>();
  for (const campaign of served)
    for (const id of campaign.ads) campaignsOf.set(id, [...(campaignsOf.get(id) ?? []), campaign]);
  return {
    readAt: Date.now(),
    byType,
    byId,
    campaigns: served,
    byKey: new Map(served.map((c) => [c.key, c])),
    campaignsOf,
  };
}

/** The fields of an ad a pick answers from; a change to any of them (or its status) drops the copy. */
const SERVING_FIELDS = ['adType', 'weight', 'probability', 'media', 'smallImage', 'targetLink'] as const;

/**
 * Whether an ad's event changes what picks read: a change of status or serving field, or an ad the
 * copy does not hold becoming published. A count going up on a published ad does not.
 */
export function eventMatters(eligible: Eligible | null, record: Record<string, unknown>): boolean {
  if (!eligible) return false;
  const held = eligible.byId.get(String(record._id));
  if (!held) return record.status === 'published';
  if (record.status !== 'published') return true;
  const time = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string).getTime());
  if (time(record.publish) !== (held.publish?.getTime() ?? null)) return true;
  if (time(record.expiry) !== (held.expiry?.getTime() ?? null)) return true;
  if (JSON.stringify(record.name) !== JSON.stringify(held.name)) return true;
  return SERVING_FIELDS.some((field) => (record[field] ?? null) !== (held[field] ?? null));
}
