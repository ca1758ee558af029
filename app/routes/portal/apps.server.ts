import { data, redirect } from 'react-router';
import {
  appDefinition,
  type AppDefinition,
  appSlug,
  type AppStatus,
  moduleBySlug,
  type OfferedApp,
  subscriptionApps,
} from '../../../domain/apps/apps';
import { deviceLimit } from '../../../domain/apps/devices';
import type { devices } from '../../../domain/entities/devices';
import type { modules } from '../../../domain/entities/modules';
import type { subscriptions } from '../../../domain/entities/subscriptions';
import type { Wire } from '../../../domain/entities/contract';
import type { RecordOf } from '../../../domain/entities/types';
import { forLocale, type I18nText, type Locale } from '../../../domain/locales';
import type { CurrencyCode } from '../../../domain/money';
import type { SessionUser, ServerContext } from '../../context';
import { withSso } from '../../components/portal/sso';
import { readAsSent } from '../../components/forms/read-form';
import { refusalOf } from '../../components/forms/refusal';
import { deviceFormSchema } from '../../../domain/forms/device';
import { memberCallParams } from '../../api/call-params.server';
import { RECORD_ID } from '../../../domain/record-id';

/*
 * The apps pages' server side (decision 030): the member's newest subscription, its modules as
 * apps, what it could add, and the devices registered to each app, all read as the member
 * (provider `ssr`, their user), so the definitions' owner rules keep every row to their own. Each
 * call gets params of its own: the services' hooks write the caller's scope into them.
 */

type ModuleRecord = RecordOf<typeof modules>;
type DeviceRecord = RecordOf<typeof devices>;
type Api = Pick<ServerContext, 'api'>;
type AsMember = { provider: string; user: SessionUser };

/** What the pages show of a module. */
export interface AppInfo {
  id: string;
  slug: string;
  name: I18nText;
  shortDesc: I18nText | null;
  description: I18nText | null;
  counter: boolean;
  released: boolean;
}

/**
 * A device as the member's pages show it: the record's parts shown (its pairing code only until the
 * device's app has entered it), whether it is paired, and its times as ISO text.
 */
export type DeviceView = Pick<DeviceRecord, '_id' | 'name' | 'code'> &
  Wire<Pick<DeviceRecord, 'pairingCode' | 'lastSeenAt'>> & {
    paired: boolean;
    registeredAt: string;
  };

export interface AppsSubscription {
  _id: string;
  currency: CurrencyCode;
}

/** One of the member's apps on the grid. */
export interface AppCard extends AppInfo {
  status: AppStatus;
  availableOn: string | null;
  included: boolean;
  count: number;
  /** How many devices are registered to it; null when it takes none. */
  devices: number | null;
}

export interface OfferedCard extends AppInfo, Pick<OfferedApp, 'billing' | 'unitPrice'> {}

export interface AppsData {
  subscription: AppsSubscription | null;
  apps: AppCard[];
  offered: OfferedCard[];
}

function infoOf(module: ModuleRecord): AppInfo {
  return {
    id: module._id,
    slug: appSlug(module),
    name: module.name,
    shortDesc: module.shortDesc,
    description: module.description,
    counter: module.counter,
    released: module.released,
  };
}

function deviceView(device: DeviceRecord): DeviceView {
  return {
    _id: device._id,
    name: device.name,
    code: device.code,
    pairingCode: device.pairedAt ? null : device.pairingCode,
    paired: device.pairedAt !== null,
    registeredAt: device.createdAt.toISOString(),
    lastSeenAt: device.lastSeenAt ? device.lastSeenAt.toISOString() : null,
  };
}

async function catalogueOf(ctx: Api, asMember: AsMember): Promise<ModuleRecord[]> {
  const page = await ctx.api.service('modules').find({ ...asMember, query: { $sort: { order: 1 }, $limit: 100 } });
  return page.data;
}

async function newestSubscription(ctx: Api, asMember: AsMember): Promise<RecordOf<typeof subscriptions> | null> {
  const found = await ctx.api
    .service('subscriptions')
    .find({ ...asMember, query: { user: asMember.user._id, $sort: { contractStart: -1 }, $limit: 1 } });
  return found.data[0] ?? null;
}

/** The member's devices matching a query, every page of them. */
async function devicesOf(
  ctx: Api,
  asMember: AsMember,
  query: { subscription: string; module?: string },
): Promise<DeviceRecord[]> {
  const rows: DeviceRecord[] = [];
  for (;;) {
    const page = await ctx.api.service('devices').find({
      ...asMember,
      query: { ...query, user: asMember.user._id, $sort: { createdAt: 1 }, $limit: 100, $skip: rows.length },
    });
    rows.push(...page.data);
    if (page.data.length === 0 || rows.length >= page.total) return rows;
  }
}

/** `/portal/apps`: the subscription's apps with their device counts, and the add-ons it could add. */
export async function loadApps(ctx: Api, user: SessionUser, locale: Locale): Promise<AppsData> {
  const asMember = { provider: 'ssr', user };
  const subscription = await newestSubscription(ctx, { ...asMember });
  if (!subscription) return { subscription: null, apps: [], offered: [] };
  const [catalogue, registered] = await Promise.all([
    catalogueOf(ctx, { ...asMember }),
    devicesOf(ctx, { ...asMember }, { subscription: subscription._id }),
  ]);
  const byId = new Map(catalogue.map((module) => [module._id, module]));
  const { apps, offered } = subscriptionApps(subscription, catalogue);
  const unknown = (id: string): AppInfo => ({
    id,
    slug: id,
    name: { en: id },
    shortDesc: null,
    description: null,
    counter: false,
    released: true,
  });
  return forLocale(
    {
      subscription: { _id: subscription._id, currency: subscription.currency },
      apps: apps.map((app): AppCard => {
        const module = byId.get(app.id);
        const takesDevices = appDefinition(module?.key).devicePrefix !== null;
        return {
          ...(module ? infoOf(module) : unknown(app.id)),
          status: app.status,
          availableOn: app.availableOn,
          included: app.included,
          count: app.count,
          devices: takesDevices ? registered.filter((device) => device.module === app.id).length : null,
        };
      }),
      offered: offered.flatMap((app): OfferedCard[] => {
        const module = byId.get(app.id);
        return module ? [{ ...infoOf(module), billing: app.billing, unitPrice: app.unitPrice }] : [];
      }),
    },
    locale,
  );
}

/** How the member stands with one app. */
export type AppState =
  | { kind: AppStatus; availableOn: string | null; included: boolean; count: number }
  /** Not on the plan, and the plan could add it. */
  | { kind: 'offered'; billing: OfferedCard['billing']; unitPrice: number }
  /** Not on the plan, and not sold to it (another industry's, or not released yet); or no plan at all. */
  | { kind: 'unavailable' };

export interface AppData {
  app: AppInfo;
  setup: Pick<AppDefinition, 'steps' | 'downloads'> & { takesDevices: boolean };
  subscription: AppsSubscription | null;
  state: AppState;
  devices: DeviceView[];
  /** How many devices the app takes on this plan; null when it takes none or is not active. */
  limit: number | null;
}

/** `/portal/apps/{app}`: one app by its key (or id); a module that does not exist is a 404. */
export async function loadApp(ctx: Api, user: SessionUser, locale: Locale, slug: string): Promise<AppData> {
  const asMember = { provider: 'ssr', user };
  const catalogue = await catalogueOf(ctx, { ...asMember });
  const module = RECORD_ID.test(slug) ? moduleBySlug(catalogue, slug) : undefined;
  if (!module) throw data(null, { status: 404 });
  const definition = appDefinition(module.key);
  const setup = {
    steps: definition.steps,
    downloads: definition.downloads,
    takesDevices: definition.devicePrefix !== null,
  };
  const subscription = await newestSubscription(ctx, { ...asMember });
  const base = { app: forLocale(infoOf(module), locale), setup };
  if (!subscription) return { ...base, subscription: null, state: { kind: 'unavailable' }, devices: [], limit: null };
  const { apps, offered } = subscriptionApps(subscription, catalogue);
  const own = apps.find((app) => app.id === module._id);
  const offer = offered.find((app) => app.id === module._id);
  const state: AppState = own
    ? { kind: own.status, availableOn: own.availableOn, included: own.included, count: own.count }
    : offer
      ? { kind: 'offered', billing: offer.billing, unitPrice: offer.unitPrice }
      : { kind: 'unavailable' };
  const registered =
    own && setup.takesDevices
      ? await devicesOf(ctx, { ...asMember }, { subscription: subscription._id, module: module._id })
      : [];
  return {
    ...base,
    subscription: { _id: subscription._id, currency: subscription.currency },
    state,
    devices: registered.map(deviceView),
    limit: own && setup.takesDevices ? deviceLimit(module, own.count) : null,
  };
}

export interface DeviceData {
  app: AppInfo;
  device: DeviceView;
}

/** `/portal/apps/{app}/{entry}`: one of the member's devices; another member's, or one of another app, is a 404. */
export async function loadDevice(
  ctx: Api,
  user: SessionUser,
  locale: Locale,
  slug: string,
  entry: string,
): Promise<DeviceData> {
  const asMember = { provider: 'ssr', user };
  if (!RECORD_ID.test(slug) || !RECORD_ID.test(entry)) throw data(null, { status: 404 });
  const [catalogue, device] = await Promise.all([
    catalogueOf(ctx, { ...asMember }),
    ctx.api
      .service('devices')
      .get(entry, { ...asMember })
      .catch(() => null),
  ]);
  const module = moduleBySlug(catalogue, slug);
  // Staff read every device; their own portal shows their own alone.
  if (!module || !device || device.user !== user._id || device.module !== module._id) throw data(null, { status: 404 });
  return { app: forLocale(infoOf(module), locale), device: deviceView(device) };
}

/** What a device form's action answers when it does not move on to another page. */
export interface DeviceAnswer {
  intent: 'register' | 'rename' | 'remove' | null;
  ok: boolean;
  /** Per field, a message the server wrote in the page's language. */
  errors: Record<string, string>;
  /** A message above the form: the server's, in the page's language, or a message key. */
  message?: string;
  /** The name as typed, so a refusal keeps it. */
  name?: string;
}

/** A refused call as the form shows it: the fields' messages, else the error's own message. */
function refusal(caught: unknown, intent: NonNullable<DeviceAnswer['intent']>, name?: string) {
  const { status, errors, message } = refusalOf(caught);
  return data<DeviceAnswer>({ intent, ok: false, errors, message, name }, { status });
}

/**
 * The apps pages' forms: register a device to an app (then its page, with the pairing code), rename
 * one, remove one (then the app's page). Every write goes through the devices service as the
 * member, so its rules hold here as on every other path; `?sso` is kept on the way.
 */
export async function deviceAction(
  ctx: ServerContext,
  user: SessionUser,
  request: Request,
  lang: string,
  slug: string,
  entry?: string,
) {
  // The devices service checks the name by its definition.
  const { intent, name, device: named } = await readAsSent(request, deviceFormSchema);
  const search = new URL(request.url).search;
  const appPath = `/${lang}/portal/apps/${encodeURIComponent(slug)}`;
  if (intent === 'register') {
    const catalogue = await catalogueOf(ctx, { provider: 'ssr', user });
    const module = RECORD_ID.test(slug) ? moduleBySlug(catalogue, slug) : undefined;
    if (!module) throw data(null, { status: 404 });
    try {
      const device = await ctx.api
        .service('devices')
        .create({ module: module._id, name }, memberCallParams(ctx, lang, user));
      return redirect(withSso(`${appPath}/${device._id}?registered=1`, search));
    } catch (error) {
      return refusal(error, intent, name);
    }
  }
  const device = entry ?? named;
  if (!RECORD_ID.test(device)) throw data(null, { status: 404 });
  if (intent === 'rename') {
    try {
      await ctx.api.service('devices').patch(device, { name }, memberCallParams(ctx, lang, user));
    } catch (error) {
      return refusal(error, intent, name);
    }
    return data<DeviceAnswer>({ intent, ok: true, errors: {} });
  }
  if (intent === 'remove') {
    try {
      await ctx.api.service('devices').remove(device, memberCallParams(ctx, lang, user));
    } catch (error) {
      return refusal(error, intent);
    }
    return redirect(withSso(`${appPath}?removed=1`, search));
  }
  return data<DeviceAnswer>({ intent: null, ok: false, errors: {}, message: 'validation.invalid' }, { status: 400 });
}
