import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { AdminSource } from '../../../domain/admin/screens';
import { defaultModeOf } from '../../../domain/admin/screens';
import { readTable, type FindPage, type TableData } from '../../../domain/admin/table';
import { parseView } from '../../../domain/admin/view';
import { entities } from '../../../domain/entities/index';
import type { Role } from '../../../domain/entities/types';
import type { Locale } from '../../../domain/locales';
import { records } from '../../api/services';
import { useLive, useLiveUp } from '../../api/use-live';

/*
 * A back-office table's data in TanStack Query (decision 034, addendum): kept under the view's part
 * of the address (`['admin', source, search]`), started from the page loader's read of that address,
 * and read again through the live connection (the Feathers client as the staff member) when the
 * entity's service announces a change, or when the page changed something itself. Nothing else on
 * the page is read again: what is selected, open or being typed stays.
 */

const EVENTS = ['created', 'patched', 'updated', 'removed'] as const;
/** Several events often come from one change (a batch, an order and its lines): one read. */
const REFRESH_DELAY_MS = 150;

/** Every view of one table: what a change to its records makes stale. */
export const tableKey = (source: AdminSource) => ['admin', source] as const;
/** One view of a table: its search (`viewSearch`). */
export const viewKey = (source: AdminSource, search: string) => ['admin', source, search] as const;

/** When this page received each of its loader's answers (an answer is one object for as long as it is shown). */
const arrivals = new WeakMap<object, number>();
function arrivedAt(answer: object): number {
  let at = arrivals.get(answer);
  if (at === undefined) {
    at = Date.now();
    arrivals.set(answer, at);
  }
  return at;
}

/** The loader's answer: the table's data among the route's other data (an open editor, messages). */
type Loaded = TableData & { search: string };

export interface TableQuery {
  /** The newest read of the view: the loader's or the live connection's, whichever came last. */
  table: TableData;
  /** Reads the table again (every view of it kept here): through the live connection, the current one at once. */
  refresh(): Promise<void>;
  /** The live connection is up: the table is read through it (otherwise only by the page's loader). */
  live: boolean;
}

export interface TableQueryOptions {
  /**
   * Read the view again when the entity's service announces a change (default). Off while the
   * page's loader does it anyway (an open editor reads its record, and the table with it).
   */
  followChanges?: boolean;
}

export function useTableQuery(
  loaded: Loaded,
  locale: Locale,
  role: Role,
  { followChanges = true }: TableQueryOptions = {},
): TableQuery {
  const live = useLive();
  const up = useLiveUp();
  const client = useQueryClient();
  const { source, search } = loaded;
  const initial = useMemo<TableData>(
    () => ({
      source: loaded.source,
      view: loaded.view,
      rows: loaded.rows,
      total: loaded.total,
      totalCapped: loaded.totalCapped,
      cursors: loaded.cursors,
      references: loaded.references,
      actions: loaded.actions,
    }),
    [loaded],
  );
  const loadedAt = arrivedAt(loaded);
  const key = viewKey(source, search);

  const query = useQuery({
    queryKey: key,
    queryFn: () => {
      if (!live) throw new Error('The live connection is not open.');
      const find: FindPage = (path, query) => live.call(path, (service) => records(service).find({ query }));
      return readTable(
        find,
        source,
        parseView(entities[source], new URLSearchParams(search), defaultModeOf(source)),
        locale,
        role,
      );
    },
    initialData: initial,
    initialDataUpdatedAt: loadedAt,
    placeholderData: keepPreviousData,
    enabled: up,
    // Fresh until a change says otherwise: the service's events, the page's own changes, a
    // reconnection (which reads the page again through its loader).
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    retry: 1,
  });

  /** When the entity's last change was heard, and when the loader's answer before this one came. */
  const heard = useRef(0);
  const previousLoad = useRef(loadedAt);

  // A newer answer of the loader (a link, Back, a save, a reconnection) is the view's data from
  // now on; one older than a read through the socket is not.
  useEffect(() => {
    const state = client.getQueryState<TableData>(viewKey(source, search));
    if (!state || state.dataUpdatedAt < loadedAt)
      client.setQueryData(viewKey(source, search), initial, { updatedAt: loadedAt });
    // The answer arrives after the server read it: a change heard while it was on its way (a row
    // action's job announcing its progress) may be newer than what it holds, and no later event may
    // come to correct it. The view is read once more through the socket, after it.
    const since = previousLoad.current;
    previousLoad.current = loadedAt;
    if (followChanges && heard.current > 0 && heard.current >= since && loadedAt > since)
      void client.invalidateQueries({ queryKey: tableKey(source) });
  }, [client, source, search, initial, loadedAt, followChanges]);

  // The entity's changes, whoever made them, make every view of the table stale; the one shown is
  // read again.
  useEffect(() => {
    if (!live || !followChanges) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const changed = () => {
      heard.current = Date.now();
      clearTimeout(timer);
      timer = setTimeout(() => void client.invalidateQueries({ queryKey: tableKey(source) }), REFRESH_DELAY_MS);
    };
    const stops = EVENTS.map((event) => live.on(source, event, changed));
    return () => {
      clearTimeout(timer);
      for (const stop of stops) stop();
    };
  }, [live, client, source, followChanges]);

  const refresh = useCallback(() => client.invalidateQueries({ queryKey: tableKey(source) }), [client, source]);

  const fresh = query.data !== undefined && !query.isPlaceholderData && query.dataUpdatedAt >= loadedAt;
  return { table: fresh ? query.data : initial, refresh, live: up };
}
