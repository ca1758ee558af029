import { entities, type EntityName } from '../entities/index.ts';
import type { Role } from '../entities/types.ts';
import type { Locale } from '../locales.ts';
import { referenceNames } from './references.ts';
import { actionsFor, columnsOf, defaultModeOf, filtersOf, type AdminAction, type AdminSource } from './screens.ts';
import { parseView, viewParams, viewQuery, type TableView } from './view.ts';

/*
 * One page of a back-office table (decision 034), read the same way on both sides: the page's
 * loader passes the services as the staff member (provider `ssr`), the browser the Feathers client
 * over the live connection. Only the `find` differs; what is asked and what comes back are one.
 */

export type AdminRecord = Record<string, unknown> & { _id: string };

/** What a service's `find` answers: a page of records, counted (page mode) or with cursors. */
export interface FoundPage {
  total: number;
  totalCapped?: boolean;
  data: AdminRecord[];
  cursors?: { previous: string | null; next: string | null };
}

/** A service's `find` as the staff member, by the service's path. */
export type FindPage = (path: EntityName, query: Record<string, unknown>) => Promise<FoundPage>;

export interface TableData {
  source: AdminSource;
  view: TableView;
  rows: AdminRecord[];
  /** Page mode: how many match; cursor mode: not counted (-1). */
  total: number;
  /** Page mode: more match than `total`, where the count stopped (decision 045). */
  totalCapped: boolean;
  /** Cursor mode: the pages before and after this one, if any. */
  cursors: { previous: string | null; next: string | null };
  references: Record<string, Record<string, string>>;
  actions: AdminAction[];
}

/**
 * The view's part of a table's address, written one way whatever order the URL had it in (and
 * without what is not the view: an open editor, open rows): what the table's data is kept under.
 */
export function viewSearch(source: AdminSource, params: URLSearchParams): string {
  return viewParams(parseView(entities[source], params, defaultModeOf(source))).toString();
}

/**
 * One page of the table, as the view asks for it. A failed read of the page fails the whole;
 * related records that cannot be read keep their ids.
 */
export async function readTable(
  find: FindPage,
  source: AdminSource,
  asked: TableView,
  locale: Locale,
  role: Role,
): Promise<TableData> {
  const definition = entities[source];
  const view = { ...asked };
  let page = await find(source, viewQuery(definition, view));
  // A page past the end (rows removed since the link was made) shows the last page instead: past a
  // capped count, the last page counted.
  if (view.mode === 'page' && page.data.length === 0 && page.total > 0 && view.page > 1) {
    view.page = Math.ceil(page.total / view.size);
    page = await find(source, viewQuery(definition, view));
  }
  return {
    source,
    view,
    rows: page.data,
    total: page.total,
    totalCapped: page.totalCapped === true,
    cursors: page.cursors ?? { previous: null, next: null },
    // The listed references, and those the search panel filters by (the chosen record's name shows there).
    references: await referenceNames(
      definition,
      [...columnsOf(definition), ...filtersOf(definition).filter((filter) => filter.type === 'reference')].map(
        (field) => field.name,
      ),
      page.data,
      locale,
      (target, query) =>
        find(target, query).then(
          (found) => found.data,
          () => null,
        ),
      view.choices,
    ),
    actions: [...actionsFor(source, role)],
  };
}
