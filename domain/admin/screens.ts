import { entities, type EntityName } from '../entities/index.ts';
import { allows, PERSONAL_DATA_EXPORTERS } from './access.ts';
import type { z } from '../zod.ts';
import { localized, type I18nText, type Locale } from '../locales.ts';
import { confirmationName } from '../entities/scope.ts';
import { hintsOf, type EntityDef, type FieldDef, type Role, type Widget } from '../entities/types.ts';
import type { PushSendAction } from '../entities/push-messages.ts';

/*
 * The back office's screens (issue 21, decision 034): one generic table and editor, driven by the
 * entity definitions. What is written here is only what a definition cannot say: where an entity
 * sits in the side menu, which field names a record, and the actions switched off for it.
 */

/** What a staff member may do on a table; the role's access removes more (`actionsFor`). */
export const ADMIN_ACTIONS = ['add', 'edit', 'clone', 'remove', 'select', 'export'] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

export const ADMIN_GROUPS = ['catalogue', 'content', 'apps', 'customers', 'billing', 'system'] as const;
export type AdminGroup = (typeof ADMIN_GROUPS)[number];

export interface AdminScreen {
  group: AdminGroup;
  /** The field that names a record: in references to it, in the delete dialog, in the editor's title. */
  title: string;
  /** Actions switched off for this entity whatever the role (records the server writes itself). */
  off?: readonly AdminAction[];
  /** Listed by cursor first (tables that grow without end: counting them is the slow part). */
  cursor?: true;
  /** Actions of the entity's own on a row: each a service called with the row's id, for the roles given, on rows that match. */
  rowActions?: readonly RowAction[];
  /**
   * Records are added by uploading files in a panel over the table, not by the editor: the media
   * library's upload panel, or the Facebook import's (decision 060).
   */
  upload?: 'media' | 'facebook';
  /**
   * Records of other entities that point at this one, listed on its page (an app user's devices),
   * and linked from its row's detail in the table (the news an import added).
   */
  related?: readonly RelatedList[];
  /** Figures of the record by day, shown on its page as a small table (an ad's views and clicks). */
  series?: SeriesPanel;
}

/**
 * A service that answers a record's figures by day, most recent first: `find({ query: { [field]: id } })`
 * answers `{ day, ...values }[]`, each value a number, named `resources.{source}.fields.{value}`.
 */
export interface SeriesPanel {
  service: 'adDays';
  field: string;
  values: readonly string[];
}

/**
 * Another entity's records that point at a record by one of their reference fields: its page lists
 * them (`field` = the record's id), each linking to its row, and links to all of them in their table.
 */
export interface RelatedList {
  source: EntityName;
  /** A filterable `ref` field of `source` pointing at the entity whose page shows the list. */
  field: string;
}

/**
 * The service a row action creates a record on, with `{ [field]: row id }` (and its `data`): one of
 * those whose create takes a record's id (domain/entities/services.ts), so the call is typed by the
 * service map.
 */
export type RowActionTarget =
  | { service: 'fulfilments'; field: 'order' }
  | { service: 'mailRetries'; field: 'delivery' }
  | { service: 'pushSends'; field: 'message'; data: { action: PushSendAction } }
  | { service: 'facebookPosts'; field: 'news' };

export type RowAction = RowActionTarget & {
  /** Its label: `admin.rowActions.<key>`; its answer's: `admin.rowActionDone.<key>`. Unique on its screen. */
  key: string;
  roles: readonly Role[];
  /** The field values a row must have for the action to be offered: one value, or any of several. */
  when: Readonly<Record<string, string | readonly string[]>>;
  /** Offered only when the row has a value in each of these fields (a test send needs its test device). */
  needs?: readonly string[];
};

/** Whether a row is one the action is offered on. */
export function rowActionFits(action: RowAction, row: Readonly<Record<string, unknown>>): boolean {
  const values = Object.entries(action.when).every(([field, wanted]) =>
    typeof wanted === 'string' ? row[field] === wanted : wanted.includes(String(row[field])),
  );
  return (
    values &&
    (action.needs ?? []).every((field) => row[field] !== null && row[field] !== undefined && row[field] !== '')
  );
}

const STAFF: readonly Role[] = ['admin', 'editor'];

/** The entities on the back office's menu, in menu order within each group. */
export const ADMIN_SCREENS = {
  industries: { group: 'catalogue', title: 'name' },
  modules: { group: 'catalogue', title: 'name' },
  appTemplates: { group: 'catalogue', title: 'name' },
  blogs: { group: 'content', title: 'title' },
  // The one list the blog and the apps' news file their records under (decision 056).
  categories: { group: 'content', title: 'name' },
  attachments: { group: 'content', title: 'name', off: ['add', 'edit', 'clone'], upload: 'media' },
  // One record, which the seed makes: its definition allows no add or delete (decision 046).
  appSettings: { group: 'content', title: 'header' },
  // The company's apps: the lists their pickers read (decision 050).
  doctorprofessions: { group: 'apps', title: 'name' },
  doctordistricts: { group: 'apps', title: 'name' },
  doctorgenders: { group: 'apps', title: 'name' },
  // The apps' own people, with their installations on their page; a person is not copied from another.
  appUsers: { group: 'apps', title: 'name', off: ['clone'], related: [{ source: 'appDevices', field: 'user' }] },
  // Installations register themselves (decision 054): staff read them, admins switch a device's push off.
  appDevices: { group: 'apps', title: 'deviceId', off: ['add', 'clone'] },
  // Staff send a test, send now, schedule and cancel through the message's service (decision 055);
  // a message that started sending is no longer edited, and only drafts and cancelled ones deleted.
  pushMessages: {
    group: 'apps',
    title: 'title',
    rowActions: [
      {
        key: 'sendTest',
        service: 'pushSends',
        field: 'message',
        data: { action: 'test' },
        roles: STAFF,
        when: {},
        needs: ['device'],
      },
      {
        key: 'sendNow',
        service: 'pushSends',
        field: 'message',
        data: { action: 'now' },
        roles: STAFF,
        when: { status: ['draft', 'scheduled'] },
      },
      {
        key: 'schedule',
        service: 'pushSends',
        field: 'message',
        data: { action: 'schedule' },
        roles: STAFF,
        when: { status: 'draft' },
        needs: ['date'],
      },
      {
        key: 'cancel',
        service: 'pushSends',
        field: 'message',
        data: { action: 'cancel' },
        roles: STAFF,
        when: { status: 'scheduled' },
      },
    ],
  },
  // The apps' news with their events, and who registered for them (decision 056). An item's page
  // lists the push messages written for it (its notification, its event's reminder) and its
  // registrants; a post to Facebook that failed is tried again from its row (decision 059).
  news: {
    group: 'apps',
    title: 'title',
    related: [
      { source: 'pushMessages', field: 'news' },
      { source: 'eventRegistrations', field: 'news' },
    ],
    rowActions: [
      {
        key: 'postToFacebook',
        service: 'facebookPosts',
        field: 'news',
        roles: STAFF,
        when: { status: 'published', facebookStatus: 'failed' },
      },
    ],
  },
  // Imports of the Facebook page's posts as draft news, by a job (decision 060): started from the
  // import's panel, never edited; each row's detail links to the news it added.
  facebook: {
    group: 'apps',
    title: 'fileName',
    off: ['add', 'edit', 'clone', 'remove', 'select'],
    upload: 'facebook',
    related: [{ source: 'news', field: 'facebookImport' }],
  },
  // Registrations are the app users' own: staff read, filter and export them; an admin removes one.
  eventRegistrations: { group: 'apps', title: 'email', off: ['add', 'edit', 'clone'], cursor: true },
  // What the apps advertise and sell (decision 057); an ad's views and clicks by day on its page.
  ads: { group: 'apps', title: 'name', series: { service: 'adDays', field: 'ad', values: ['views', 'clicks'] } },
  campaigns: { group: 'apps', title: 'name' },
  products: { group: 'apps', title: 'name' },
  enquiries: { group: 'customers', title: 'email', off: ['add', 'clone'] },
  contactForms: { group: 'customers', title: 'email', off: ['add', 'clone'], cursor: true },
  subscribers: { group: 'customers', title: 'email', off: ['clone'] },
  users: { group: 'customers', title: 'email', off: ['clone'] },
  orders: {
    group: 'billing',
    title: 'number',
    off: ['add', 'clone'],
    // A paid order is set up (hardware shipped, add-ons switched on) by staff: the member's dashboard shows it at once (decision 028).
    rowActions: [
      { key: 'fulfil', service: 'fulfilments', field: 'order', roles: STAFF, when: { status: 'provisioning' } },
    ],
  },
  payments: { group: 'billing', title: '_id', off: ['add', 'clone', 'remove'], cursor: true },
  subscriptions: { group: 'billing', title: '_id', off: ['add', 'clone'] },
  invoices: { group: 'billing', title: 'number', off: ['add', 'clone', 'remove'] },
  devices: { group: 'billing', title: 'name', off: ['clone'] },
  // The staff accounts, admins only (their access); a copy would copy a person (decision 052).
  admins: { group: 'system', title: 'email', off: ['clone'] },
  mailDeliveries: {
    group: 'system',
    title: 'subject',
    off: ['add', 'clone', 'edit', 'remove', 'select'],
    cursor: true,
    // A mail that failed after all its retries is sent again by an admin (decision 035).
    rowActions: [
      { key: 'retry', service: 'mailRetries', field: 'delivery', roles: ['admin'], when: { state: 'failed' } },
    ],
  },
  outbox: { group: 'system', title: 'subject', off: ['add', 'clone', 'edit'], cursor: true },
  auditLogs: { group: 'system', title: 'recordId', off: ['add', 'clone', 'edit', 'remove', 'select'], cursor: true },
} as const satisfies Partial<Record<EntityName, AdminScreen>>;

export type AdminSource = keyof typeof ADMIN_SCREENS;

export function isAdminSource(value: string | undefined): value is AdminSource {
  return value !== undefined && Object.hasOwn(ADMIN_SCREENS, value);
}

/**
 * The field that names a record of an entity with no screen of its own, where another entity's
 * field refers to it (a push message's test device, by the installation's id).
 */
const REFERENCE_TITLES: Readonly<Record<string, string>> = { appDevices: 'deviceId', appUsers: 'name' };

/** The field that names a record of an entity: its screen's title, else its reference title, else `fallback`. */
export function titleFieldOf(source: string, fallback = '_id'): string {
  return isAdminSource(source) ? ADMIN_SCREENS[source].title : (REFERENCE_TITLES[source] ?? fallback);
}

/** A record's name as the back office shows it: its screen's title field, in the language, or its id. */
export function recordName(source: string, record: Record<string, unknown>, locale: Locale): string {
  const field = titleFieldOf(source, 'name');
  const value = record[field];
  if (value && typeof value === 'object') return localized(value as I18nText, locale) || String(record._id);
  return value === null || value === undefined || value === '' ? String(record._id) : String(value);
}

/** Whether the role changes every row of the entity, not only its own (the definition's owner rule). */
function writesEveryRow(definition: EntityDef, role: Role): boolean {
  return !definition.owner || definition.owner.allRows.write.includes(role);
}

/** Whether the role lists the entity's every row (its find access and owner rule). */
function reads(definition: EntityDef, role: Role): boolean {
  return allows(definition.access.find, role) && (!definition.owner || definition.owner.allRows.read.includes(role));
}

/** The entities a staff member may list, in menu order. */
export function screensFor(role: Role): AdminSource[] {
  return (Object.keys(ADMIN_SCREENS) as AdminSource[]).filter((source) => reads(entities[source], role));
}

/** What the role may do on the entity's table: its access and owner rules, less what the screen switches off. */
export function actionsFor(source: AdminSource, role: Role): Set<AdminAction> {
  const definition = entities[source];
  const screen: AdminScreen = ADMIN_SCREENS[source];
  const every = writesEveryRow(definition, role);
  const granted: Record<AdminAction, boolean> = {
    add: allows(definition.access.create, role),
    edit: allows(definition.access.patch, role) && every,
    clone: allows(definition.access.create, role),
    remove: allows(definition.access.remove, role) && every,
    select: allows(definition.access.remove, role) && every,
    // An export reads every row the table lists (decision 036); personal data is exported by admins only (decision 052).
    export:
      reads(definition, role) &&
      exportedFieldsOf(definition).length > 0 &&
      (!definition.personalData || PERSONAL_DATA_EXPORTERS.includes(role)),
  };
  const off = new Set<AdminAction>(screen.off ?? []);
  return new Set(ADMIN_ACTIONS.filter((action) => granted[action] && !off.has(action)));
}

export interface AdminField {
  name: string;
  def: FieldDef;
  widget: Widget;
  /** A list of records the editor writes: its items' fields, in the item schema's order. */
  items?: ItemColumn[];
  /** The confirmation of a confirmed field (`passwordConfirm`): the field it must equal (decision 052). */
  confirms?: string;
}

/** One field of a list's items, as the editor's sub-list shows it. */
export interface ItemColumn {
  name: string;
  widget: 'text' | 'number' | 'money' | 'ref';
  /** For `ref`: the service the value points to (the definition's `populate` of `list.field`). */
  ref?: string;
  required: boolean;
}

type SchemaDef = { type?: string; innerType?: z.ZodType; shape?: Record<string, z.ZodType> };
const defOf = (schema: z.ZodType | undefined): SchemaDef =>
  (schema as unknown as { def?: SchemaDef } | undefined)?.def ?? {};

/**
 * The item fields of a list of records, when every one is plain text or a number (what the
 * sub-list editor writes); null otherwise.
 */
function itemColumnsOf(definition: EntityDef, name: string, def: FieldDef): ItemColumn[] | null {
  if (def.kind !== 'list' || !def.itemKey) return null;
  const item = defOf(def.item);
  if (item.type !== 'object' || !item.shape) return null;
  const columns: ItemColumn[] = [];
  for (const [column, schema] of Object.entries(item.shape)) {
    let inner = defOf(schema);
    const required = inner.type !== 'optional' && inner.type !== 'default';
    while ((inner.type === 'optional' || inner.type === 'default' || inner.type === 'nullable') && inner.innerType)
      inner = defOf(inner.innerType);
    const ref = Object.values(definition.populate ?? {}).find(
      (populate) => populate.path === `${name}.${column}`,
    )?.service;
    if (ref) columns.push({ name: column, widget: 'ref', ref, required });
    else if (inner.type === 'number')
      columns.push({
        name: column,
        widget: def.hints?.itemWidgets?.[column] === 'money' ? 'money' : 'number',
        required,
      });
    else if (inner.type === 'string') columns.push({ name: column, widget: 'text', required });
    else return null;
  }
  return columns;
}

function fieldsOf(definition: EntityDef): AdminField[] {
  return Object.entries(definition.fields).map(([name, def]) => ({ name, def, widget: hintsOf(def).widget }));
}

/** The table's columns: the listed fields, by their `column` hint, then in field order. */
export function columnsOf(definition: EntityDef): AdminField[] {
  const listed = fieldsOf(definition).filter((field) => hintsOf(field.def).shownIn.includes('list'));
  const place = (field: AdminField) => field.def.hints?.column ?? Number.MAX_SAFE_INTEGER;
  return listed
    .map((field, index) => ({ field, index }))
    .sort((a, b) => place(a.field) - place(b.field) || a.index - b.index)
    .map(({ field }) => field);
}

/** The fields an export may hold: those the definition marks `exported`, in field order. */
export function exportedFieldsOf(definition: EntityDef): AdminField[] {
  return fieldsOf(definition).filter((field) => field.def.exported && !field.def.hidden);
}

/** The fields free text is matched against. */
export function searchFieldsOf(definition: EntityDef): string[] {
  return fieldsOf(definition)
    .filter((field) => field.def.searchable && !field.def.hidden)
    .map((field) => field.name);
}

/** The kinds the search panel offers a filter for, and how: a choice, yes/no, a range, or a related record found by its name. */
export type FilterType = 'choice' | 'boolean' | 'range' | 'dateRange' | 'reference' | 'text';

export interface AdminFilter extends AdminField {
  type: FilterType;
}

/**
 * The search panel's per-field filters: filterable enumerations, booleans, numbers, dates,
 * references, and texts given a filter of their own (`hints.filter`).
 */
export function filtersOf(definition: EntityDef): AdminFilter[] {
  const filters: AdminFilter[] = [];
  for (const field of fieldsOf(definition)) {
    if (!field.def.filterable || field.def.hidden) continue;
    const type: FilterType | null =
      field.def.kind === 'enum'
        ? 'choice'
        : // A moment a switch sets is filtered as the switch: set or not.
          field.def.kind === 'boolean' || field.widget === 'timestampSwitch'
          ? 'boolean'
          : field.def.kind === 'date' || field.def.kind === 'day'
            ? 'dateRange'
            : field.def.kind === 'integer'
              ? 'range'
              : field.def.kind === 'ref' && field.def.ref && isAdminSource(field.def.ref)
                ? 'reference'
                : field.def.kind === 'string' && field.def.hints?.filter === 'exact'
                  ? 'text'
                  : null;
    if (type) filters.push({ ...field, type });
  }
  return filters;
}

/** The widgets the editor writes; other fields show read-only there. */
const EDITABLE_WIDGETS: ReadonlySet<Widget> = new Set<Widget>([
  'image',
  'gallery',
  'text',
  'textarea',
  'richText',
  'i18nText',
  'number',
  'money',
  'date',
  'dateTime',
  'enum',
  'ref',
  'refs',
  'boolean',
  'color',
  'mapPoint',
  'dateRange',
  'email',
  'password',
  'day',
  'timestampSwitch',
]);

/**
 * The editor's fields: every field that is not hidden; `editable` where the role may write it in
 * the editor (not set by the server, not limited to other roles, a widget the editor writes).
 * A password is written on create only (an account's owner changes it themselves), unless staff
 * set it (`confirmed`): then it is asked twice, and on edit it is optional, a new one replacing
 * the old (decision 052). The confirmation follows its field (`confirms`), never stored.
 */
export function editorFieldsOf(
  definition: EntityDef,
  role: Role,
  mode: 'create' | 'patch',
): (AdminField & { editable: boolean })[] {
  return fieldsOf(definition)
    .filter(
      (field) =>
        field.name !== '_id' &&
        (!field.def.hidden || (field.def.kind === 'password' && (mode === 'create' || field.def.confirmed === true))),
    )
    .flatMap((field) => {
      const byRole =
        (!field.def.writable || field.def.writable.includes(role)) &&
        (mode === 'create' || !field.def.patchable || field.def.patchable.includes(role));
      // A list of plain values (tags, ids) is written one per line; a list of records row by row, when its items are plain.
      const items = itemColumnsOf(definition, field.name, field.def);
      const writable =
        EDITABLE_WIDGETS.has(field.widget) || (field.widget === 'list' && (!field.def.itemKey || items !== null));
      const confirmed = field.def.confirmed === true;
      const editable =
        !field.def.readonly && byRole && writable && !(field.def.kind === 'password' && mode === 'patch' && !confirmed);
      if (confirmed) {
        // On edit a new value is optional: left empty, the stored one stays.
        const def: FieldDef = mode === 'patch' ? { ...field.def, required: false } : field.def;
        const confirmation: AdminField & { editable: boolean } = {
          name: confirmationName(field.name),
          def: { kind: field.def.kind, hidden: true, required: def.required === true },
          widget: field.widget,
          confirms: field.name,
          editable,
        };
        return [{ ...field, def, editable }, confirmation];
      }
      return [items ? { ...field, items, editable } : { ...field, editable }];
    });
}

/** How the entity's table pages when the URL does not say. */
export function defaultModeOf(source: AdminSource): 'page' | 'cursor' {
  const screen: AdminScreen = ADMIN_SCREENS[source];
  return screen.cursor ? 'cursor' : 'page';
}

/** What a record's expanded row and page show: every field shown on its own page, in field order. */
export function detailFieldsOf(definition: EntityDef): AdminField[] {
  return fieldsOf(definition).filter((field) => hintsOf(field.def).shownIn.includes('detail'));
}

/** The entity's own row actions the role may take. */
export function rowActionsFor(source: AdminSource, role: Role): readonly RowAction[] {
  const screen: AdminScreen = ADMIN_SCREENS[source];
  return (screen.rowActions ?? []).filter((action) => action.roles.includes(role));
}

/** The lists of related records an entity's page shows to the role: those whose entity it may list. */
export function relatedListsFor(source: AdminSource, role: Role): (RelatedList & { source: AdminSource })[] {
  const screen: AdminScreen = ADMIN_SCREENS[source];
  const listed = screensFor(role);
  return (screen.related ?? []).flatMap((related) =>
    isAdminSource(related.source) && listed.includes(related.source) ? [{ ...related, source: related.source }] : [],
  );
}
