import { hintsOf, type EntityDef, type FieldDef } from '../entities/types.ts';
import { CURRENCY_MULTIPLIER } from '../money.ts';
import { RECORD_ID } from '../record-id.ts';
import { filtersOf, searchFieldsOf, type AdminFilter } from './screens.ts';

/*
 * A table's view, held whole in the URL (issue 21) so it can be bookmarked, shared and restored
 * with the back button:
 *   q=text            free text over the searchable fields
 *   sort=field|-field one sortable field, descending with a minus
 *   page=2 size=20    page mode: the page (from 1) and its size (5, 10, 20 or 100; 10 by default)
 *   mode=cursor       cursor mode instead (or `mode=page` where an entity lists by cursor first):
 *   cursor=…          the service's cursor of the page shown, none for the first
 *   f.status=paid     a choice or yes/no filter (repeated for several choices), or a whole text (`f.region=sg`)
 *   f.total.min=100   the ends of a range (dates as YYYY-MM-DD, Hong Kong days; calendar days as they are)
 * Anything else in the URL (`editor`, `selected`) is left alone.
 */

export const PAGE_SIZES = [5, 10, 20, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;
/** The page buttons shown at once. */
export const PAGE_BUTTONS = 10;
/**
 * How far page mode counts the matches (`$countUpTo`, decision 045): as many rows as the page
 * buttons show at once at the largest page size. Past it the total shows as "1,000+", the buttons
 * go as far as is known, and Next goes on.
 */
export const COUNT_UP_TO = PAGE_BUTTONS * Math.max(...PAGE_SIZES);
const MAX_TEXT = 100;

export interface RangeFilter {
  min?: string;
  max?: string;
}

export type PageMode = 'page' | 'cursor';
/** What cursor mode shows for the total, which it does not count (spec section 7). */
export const CURSOR_TOTAL = 999;
const CURSOR = /^[A-Za-z0-9_-]{1,2000}$/;

export interface TableView {
  /** Page buttons with a total, or next and previous by cursor (no count: as fast on the last page as the first). */
  mode: PageMode;
  /** The entity's own mode, left out of the URL. */
  defaultMode: PageMode;
  /** Cursor mode: the page's cursor from the service ('' for the first page). */
  cursor: string;
  q: string;
  sort: { field: string; direction: 1 | -1 } | null;
  page: number;
  size: number;
  /** Choices by field; ranges by field. */
  choices: Record<string, string[]>;
  ranges: Record<string, RangeFilter>;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const INTEGER = /^-?\d{1,12}$/;
const AMOUNT = /^-?\d{1,10}(\.\d{1,2})?$/;

/** Money is typed in dollars and stored in cents. */
const isMoney = (def: FieldDef | undefined) => def !== undefined && hintsOf(def).widget === 'money';

function validEnd(filter: AdminFilter, value: string): boolean {
  if (filter.type === 'dateRange') return DAY.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00+08:00`));
  return (isMoney(filter.def) ? AMOUNT : INTEGER).test(value);
}

/** The view a URL asks for, keeping only what the entity allows (unknown fields and bad values are dropped). */
export function parseView(definition: EntityDef, params: URLSearchParams, defaultMode: PageMode = 'page'): TableView {
  const modeParam = params.get('mode');
  const mode: PageMode = modeParam === 'page' || modeParam === 'cursor' ? modeParam : defaultMode;
  const cursorParam = params.get('cursor') ?? '';
  const cursor = mode === 'cursor' && CURSOR.test(cursorParam) ? cursorParam : '';
  const q = (params.get('q') ?? '').trim().slice(0, MAX_TEXT);
  const sortParam = params.get('sort') ?? '';
  const sortField = sortParam.replace(/^-/, '');
  const sort = definition.fields[sortField]?.sortable
    ? { field: sortField, direction: sortParam.startsWith('-') ? (-1 as const) : (1 as const) }
    : null;
  const sizeParam = Number(params.get('size'));
  const size = (PAGE_SIZES as readonly number[]).includes(sizeParam) ? sizeParam : DEFAULT_PAGE_SIZE;
  const pageParam = Number(params.get('page'));
  const page = Number.isInteger(pageParam) && pageParam >= 1 && pageParam <= 1_000_000 ? pageParam : 1;
  const choices: Record<string, string[]> = {};
  const ranges: Record<string, RangeFilter> = {};
  for (const filter of filtersOf(definition)) {
    if (filter.type === 'reference') {
      const id = params.get(`f.${filter.name}`)?.trim();
      if (id && RECORD_ID.test(id)) choices[filter.name] = [id];
    } else if (filter.type === 'text') {
      const text = params.get(`f.${filter.name}`)?.trim().slice(0, MAX_TEXT);
      if (text) choices[filter.name] = [text];
    } else if (filter.type === 'choice' || filter.type === 'boolean') {
      const allowed = filter.type === 'boolean' ? ['true', 'false'] : (filter.def.enum ?? []);
      const values = [...new Set(params.getAll(`f.${filter.name}`))].filter((value) => allowed.includes(value));
      if (values.length > 0) choices[filter.name] = values;
    } else {
      const range: RangeFilter = {};
      const min = params.get(`f.${filter.name}.min`)?.trim();
      const max = params.get(`f.${filter.name}.max`)?.trim();
      if (min && validEnd(filter, min)) range.min = min;
      if (max && validEnd(filter, max)) range.max = max;
      if (range.min !== undefined || range.max !== undefined) ranges[filter.name] = range;
    }
  }
  return { mode, defaultMode, cursor, q, sort, page: mode === 'cursor' ? 1 : page, size, choices, ranges };
}

const VIEW_KEYS = (name: string) =>
  ['q', 'sort', 'page', 'size', 'mode', 'cursor'].includes(name) || name.startsWith('f.');

/** The URL's parameters for a view, keeping the others already there (an open editor). Defaults are left out. */
export function viewParams(view: TableView, keep: URLSearchParams = new URLSearchParams()): URLSearchParams {
  const params = new URLSearchParams([...keep].filter(([name]) => !VIEW_KEYS(name)));
  if (view.mode !== view.defaultMode) params.set('mode', view.mode);
  if (view.mode === 'cursor' && view.cursor) params.set('cursor', view.cursor);
  if (view.q) params.set('q', view.q);
  if (view.sort) params.set('sort', `${view.sort.direction === -1 ? '-' : ''}${view.sort.field}`);
  if (view.page > 1) params.set('page', String(view.page));
  if (view.size !== DEFAULT_PAGE_SIZE) params.set('size', String(view.size));
  for (const [name, values] of Object.entries(view.choices))
    for (const value of values) params.append(`f.${name}`, value);
  for (const [name, range] of Object.entries(view.ranges)) {
    if (range.min !== undefined) params.set(`f.${name}.min`, range.min);
    if (range.max !== undefined) params.set(`f.${name}.max`, range.max);
  }
  return params;
}

/** Whether the view narrows the records (a search or a filter): an empty table then says nothing matched, not that there is nothing. */
export function isNarrowed(view: Pick<TableView, 'q' | 'choices' | 'ranges'>): boolean {
  return (
    view.q !== '' ||
    Object.values(view.choices).some((values) => values.length > 0) ||
    Object.values(view.ranges).some((range) => range.min !== undefined || range.max !== undefined)
  );
}

/**
 * A `$regex` that matches the text literally. The service decides where: short text of letters or
 * digits from the start of a value, anything else anywhere in it (decision 033).
 */
export function textPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The start of a Hong Kong day, and the start of the day after (a range's ends, inclusive days). */
function hongKongDay(day: string, after = false): string {
  const start = new Date(`${day}T00:00:00+08:00`);
  if (after) start.setUTCDate(start.getUTCDate() + 1);
  return start.toISOString();
}

/** The service query for a view: what the table asks `find` for. */
export function viewQuery(definition: EntityDef, view: TableView): Record<string, unknown> {
  const query: Record<string, unknown> =
    view.mode === 'cursor'
      ? { $limit: view.size, $cursor: view.cursor }
      : { $limit: view.size, $skip: (view.page - 1) * view.size, $countUpTo: COUNT_UP_TO };
  const sort = view.sort ? { [view.sort.field]: view.sort.direction } : { ...definition.defaultSort };
  // A unique last key keeps the order stable between pages when the sorted values repeat.
  if (!('_id' in sort) && definition.fields._id?.sortable) sort._id = 1;
  query.$sort = sort;
  if (view.q) {
    const $regex = textPattern(view.q);
    const fields = searchFieldsOf(definition);
    if (fields.length > 0) query.$or = fields.map((field) => ({ [field]: { $regex, $options: 'i' } }));
  }
  for (const [name, values] of Object.entries(view.choices)) {
    const field = definition.fields[name];
    const kind = field?.kind;
    if (field && hintsOf(field).widget === 'timestampSwitch') {
      // Switched on: the moment is set; off: it is empty. Both asked: no condition.
      if (values.length === 1) query[name] = values[0] === 'true' ? { $ne: null } : null;
      continue;
    }
    const typed = kind === 'boolean' ? values.map((value) => value === 'true') : values;
    query[name] = typed.length === 1 ? typed[0] : { $in: typed };
  }
  for (const [name, range] of Object.entries(view.ranges)) {
    const def = definition.fields[name];
    const date = def?.kind === 'date';
    // A calendar day is kept as written (`1990-05-17`): its ends compare as they are, with no time zone.
    if (def?.kind === 'day') {
      query[name] = {
        ...(range.min !== undefined ? { $gte: range.min } : {}),
        ...(range.max !== undefined ? { $lte: range.max } : {}),
      };
      continue;
    }
    const number = (value: string) => (isMoney(def) ? Math.round(Number(value) * CURRENCY_MULTIPLIER) : Number(value));
    const condition: Record<string, unknown> = {};
    if (range.min !== undefined) condition.$gte = date ? hongKongDay(range.min) : number(range.min);
    if (range.max !== undefined) {
      if (date) condition.$lt = hongKongDay(range.max, true);
      else condition.$lte = number(range.max);
    }
    query[name] = condition;
  }
  return query;
}

/** The page buttons around the current page: at most `PAGE_BUTTONS`, the current one kept near the middle. */
export function pageButtons(page: number, pages: number): number[] {
  const count = Math.min(PAGE_BUTTONS, pages);
  const first = Math.max(1, Math.min(page - Math.floor(PAGE_BUTTONS / 2) + 1, pages - count + 1));
  return Array.from({ length: count }, (_, index) => first + index);
}

/** What page mode's pager shows for a page the service answered. */
export interface PagerState {
  /** The rows shown, from 1 (0 and 0 when none match). */
  from: number;
  to: number;
  /** The pages known to exist: all of them, or those up to the count's cap. */
  pages: number;
  /** More match than `total` says (the count stopped at its cap): shown as "1,000+". */
  more: boolean;
  hasNext: boolean;
}

/**
 * The pager of a page with its total. A capped total (`totalCapped`) is a floor: the buttons go as
 * far as it reaches, and Next stays on, since rows follow this page.
 */
export function pagerState(view: Pick<TableView, 'page' | 'size'>, total: number, totalCapped = false): PagerState {
  const pages = Math.max(1, Math.ceil(total / view.size));
  return {
    from: total === 0 ? 0 : (view.page - 1) * view.size + 1,
    to: Math.min(total, view.page * view.size),
    pages,
    more: totalCapped,
    hasNext: view.page < pages || totalCapped,
  };
}
