import {
  rowSelectionFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type RowSelectionState,
} from '@tanstack/react-table';
import { Fragment, useEffect, useMemo, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  rowActionFits,
  type AdminAction,
  type AdminField,
  type RelatedList,
  type RowAction,
} from '../../../domain/admin/screens';
import { isNarrowed, type TableView } from '../../../domain/admin/view';
import { useLocale } from '../../i18n/messages';
import { ArrowUpIcon, ChevronDownIcon } from '../ui/icons';
import { CellValue } from './cells';
import { handleGridKey, rovingTabIndex } from './grid-keys';
import { RecordDetail } from './record-detail';

export type Row = Record<string, unknown> & { _id: string };

const features = tableFeatures({ rowSelectionFeature });

interface DataTableProps {
  source: string;
  rows: Row[];
  columns: AdminField[];
  view: TableView;
  references: Record<string, Record<string, string>>;
  actions: ReadonlySet<AdminAction>;
  selection: RowSelectionState;
  onSelectionChange: (next: RowSelectionState) => void;
  /** The link that sorts by a field (the next direction), keeping the rest of the view. */
  sortHref: (field: string) => string;
  editHref: (id: string) => string;
  cloneHref: (id: string) => string;
  onRemove: (row: Row) => void;
  nameOf: (row: Row) => string;
  /** The rows shown open (their detail under them), and the link that opens or closes one. */
  expanded: ReadonlySet<string>;
  expandHref: (id: string) => string;
  detailFields: AdminField[];
  /** The entity's own row action (a failed mail's Retry), on the rows it fits. */
  /** The entity's own actions the role may take; each row offers those that fit it. */
  rowActions: readonly RowAction[];
  onRowAction: (row: Row, action: RowAction) => void;
  /** Other entities' records that point at a row: its detail links to them, in their table. */
  related?: readonly RelatedList[];
}

/**
 * The back office's table (issue 21): TanStack Table's model over one page the server answered
 * (sorting and paging happen in the query, held in the URL), with the columns the definition lists.
 */
export function DataTable({
  source,
  rows,
  columns,
  view,
  references,
  actions,
  selection,
  onSelectionChange,
  sortHref,
  editHref,
  cloneHref,
  onRemove,
  nameOf,
  expanded,
  expandHref,
  detailFields,
  rowActions,
  onRowAction,
  related = [],
}: DataTableProps) {
  const { t, locale } = useLocale();
  const selectable = actions.has('select');
  const hasRowActions = actions.has('edit') || actions.has('clone') || actions.has('remove') || rowActions.length > 0;

  const columnDefs = useMemo<ColumnDef<typeof features, Row>[]>(
    () =>
      columns.map((field) => ({
        id: field.name,
        accessorFn: (row: Row) => row[field.name],
        header: () => t(`resources.${source}.fields.${field.name}`),
        cell: (info) => (
          <CellValue
            field={field}
            value={info.getValue()}
            row={info.row.original}
            source={source}
            references={references[field.name]}
            t={t}
            locale={locale}
          />
        ),
      })),
    [columns, references, source, t, locale],
  );

  const table = useTable({
    features,
    columns: columnDefs,
    data: rows,
    getRowId: (row) => row._id,
    enableRowSelection: selectable,
    state: { rowSelection: selection },
    onRowSelectionChange: (updater) => onSelectionChange(typeof updater === 'function' ? updater(selection) : updater),
  });

  // One stop in the tab order for the whole body, moved by the arrow keys (grid-keys.ts).
  const body = useRef<HTMLTableSectionElement>(null);
  const focused = useRef<HTMLElement | null>(null);
  const navigate = useNavigate();
  useEffect(() => {
    if (body.current) focused.current = rovingTabIndex(body.current, focused.current);
  });
  const onGridKey = (event: React.KeyboardEvent<HTMLTableSectionElement>) => {
    if (!body.current) return;
    const moved = handleGridKey(event.nativeEvent, body.current, {
      onOpen: (element) => {
        const id = element.dataset.id;
        if (!id) return;
        navigate(actions.has('edit') ? editHref(id) : expandHref(id), {
          preventScrollReset: true,
          replace: !actions.has('edit'),
        });
      },
      onSelect: (element) => {
        const id = element.dataset.id;
        if (id && selectable) table.getRow(id).toggleSelected();
      },
    });
    if (moved) focused.current = moved;
  };

  const allSelected = table.getIsAllPageRowsSelected();
  const someSelected = table.getIsSomePageRowsSelected();

  return (
    // Positioned, so the visually hidden labels inside (absolute) scroll with the table instead of
    // widening the whole page past a wide table's end.
    <div className="relative overflow-x-auto rounded-2xl border border-line bg-raised">
      <table
        className="w-full text-left text-sm"
        role="grid"
        aria-label={t(`resources.${source}.name`)}
        data-testid="admin-table"
      >
        <thead className="border-b border-line bg-sunken/60 text-xs tracking-wide text-muted uppercase">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {selectable ? (
                <th scope="col" className="w-10 px-3 py-2.5">
                  <input
                    type="checkbox"
                    className="h-4 w-4 accent-brand-700"
                    aria-label={t('admin.selectPage')}
                    checked={allSelected}
                    ref={(input) => {
                      if (input) input.indeterminate = someSelected && !allSelected;
                    }}
                    onChange={(event) => table.toggleAllPageRowsSelected(event.target.checked)}
                    data-testid="select-page"
                  />
                </th>
              ) : null}
              <th scope="col" className="w-8 px-1 py-2.5">
                <span className="sr-only">{t('admin.details')}</span>
              </th>
              {group.headers.map((header) => {
                const field = columns.find((column) => column.name === header.column.id);
                const sorted = view.sort?.field === header.column.id ? view.sort.direction : 0;
                const label = <table.FlexRender header={header} />;
                return (
                  <th
                    key={header.id}
                    scope="col"
                    className="px-3 py-2.5 font-semibold whitespace-nowrap"
                    aria-sort={sorted === 1 ? 'ascending' : sorted === -1 ? 'descending' : undefined}
                  >
                    {field?.def.sortable ? (
                      <Link
                        to={sortHref(header.column.id)}
                        className="inline-flex items-center gap-1 hover:text-ink"
                        data-testid={`sort-${header.column.id}`}
                        replace
                        preventScrollReset
                      >
                        {label}
                        <ArrowUpIcon
                          className={`h-3.5 w-3.5 transition-transform ${sorted === 0 ? 'opacity-30' : ''} ${sorted === -1 ? 'rotate-180' : ''}`}
                        />
                        {sorted !== 0 ? (
                          <span className="sr-only">
                            {t(sorted === 1 ? 'admin.sortedAscending' : 'admin.sortedDescending')}
                          </span>
                        ) : null}
                      </Link>
                    ) : (
                      label
                    )}
                  </th>
                );
              })}
              {hasRowActions ? (
                <th scope="col" className="px-3 py-2.5 text-right">
                  <span className="sr-only">{t('admin.actions')}</span>
                </th>
              ) : null}
            </tr>
          ))}
        </thead>
        <tbody
          ref={body}
          className="divide-y divide-line"
          onKeyDown={onGridKey}
          onFocus={(event) => {
            const target = (event.target as HTMLElement).closest<HTMLElement>('[data-grid-target]');
            if (target) focused.current = target;
          }}
        >
          {table.getRowModel().rows.map((row) => {
            const name = nameOf(row.original);
            const open = expanded.has(row.id);
            const columnCount = columns.length + (selectable ? 1 : 0) + (hasRowActions ? 1 : 0) + 1;
            return (
              <Fragment key={row.id}>
                <tr
                  className={row.getIsSelected() ? 'bg-brand-50/60 dark:bg-brand-950/40' : 'hover:bg-sunken/50'}
                  data-testid="admin-row"
                  data-id={row.id}
                >
                  {selectable ? (
                    <td className="px-3 py-2.5">
                      <input
                        type="checkbox"
                        className="h-4 w-4 accent-brand-700"
                        aria-label={t('admin.selectRow', { name })}
                        checked={row.getIsSelected()}
                        onChange={(event) => row.toggleSelected(event.target.checked)}
                        data-testid="select-row"
                        data-grid-target=""
                      />
                    </td>
                  ) : null}
                  <td className="px-1 py-1.5">
                    <Link
                      to={expandHref(row.id)}
                      className="inline-flex h-8 w-8 items-center justify-center rounded-md text-muted hover:bg-sunken hover:text-ink"
                      aria-expanded={open}
                      aria-controls={open ? `detail-${row.id}` : undefined}
                      aria-label={t(open ? 'admin.hideDetails' : 'admin.showDetails', { name })}
                      data-testid="row-expand"
                      data-grid-target=""
                      replace
                      preventScrollReset
                    >
                      <ChevronDownIcon className={`h-4 w-4 transition-transform ${open ? 'rotate-180' : ''}`} />
                    </Link>
                  </td>
                  {row.getAllCells().map((cell) => (
                    // Clipped inside the cell, not by it: WebKit does not hit-test a cell that clips (or sticks).
                    <td
                      key={cell.id}
                      className="px-3 py-2.5 focus:outline-2 focus:-outline-offset-2 focus:outline-brand-600"
                      data-column={cell.column.id}
                      role="gridcell"
                      data-grid-target=""
                    >
                      <div className="max-w-xs truncate">
                        <table.FlexRender cell={cell} />
                      </div>
                    </td>
                  ))}
                  {hasRowActions ? (
                    <td className="px-2 py-1.5 text-right whitespace-nowrap">
                      <span className="inline-flex gap-1" role="group" aria-label={t('admin.rowActions', { name })}>
                        {rowActions
                          .filter((action) => rowActionFits(action, row.original))
                          .map((action) => (
                            <button
                              key={action.key}
                              type="button"
                              onClick={() => onRowAction(row.original, action)}
                              className="rounded-md px-2 py-1 font-semibold text-brand-700 hover:bg-sunken dark:text-brand-300"
                              data-testid={`row-${action.key}`}
                              data-grid-target=""
                            >
                              {t(`admin.rowActions.${action.key}`)}
                            </button>
                          ))}
                        {actions.has('edit') ? (
                          <Link
                            to={editHref(row.id)}
                            className="rounded-md px-2 py-1 font-semibold text-brand-700 hover:bg-sunken dark:text-brand-300"
                            data-testid="row-edit"
                            data-grid-target=""
                            preventScrollReset
                          >
                            {t('admin.edit')}
                          </Link>
                        ) : null}
                        {actions.has('clone') ? (
                          <Link
                            to={cloneHref(row.id)}
                            className="rounded-md px-2 py-1 font-semibold text-brand-700 hover:bg-sunken dark:text-brand-300"
                            data-testid="row-clone"
                            data-grid-target=""
                          >
                            {t('admin.clone')}
                          </Link>
                        ) : null}
                        {actions.has('remove') ? (
                          <button
                            type="button"
                            onClick={() => onRemove(row.original)}
                            className="rounded-md px-2 py-1 font-semibold text-red-700 hover:bg-sunken dark:text-red-300"
                            data-testid="row-remove"
                            data-grid-target=""
                          >
                            {t('admin.remove')}
                          </button>
                        ) : null}
                      </span>
                    </td>
                  ) : null}
                </tr>
                {open ? (
                  <tr id={`detail-${row.id}`} className="bg-sunken/40" data-testid="row-detail">
                    <td colSpan={columnCount} className="px-4 py-4 sm:px-6">
                      <RecordDetail
                        source={source}
                        fields={detailFields}
                        record={row.original}
                        references={references}
                      />
                      {related.map((list) => (
                        <Link
                          key={`${list.source}.${list.field}`}
                          to={`/${locale}/admin/${list.source}?${new URLSearchParams({ [`f.${list.field}`]: row.id })}`}
                          className="mt-3 inline-block text-sm font-semibold text-brand-700 underline-offset-4 hover:underline dark:text-brand-300"
                          data-testid={`row-related-${list.source}`}
                        >
                          {t('admin.related.all', { entity: t(`resources.${list.source}.name`) })}
                        </Link>
                      ))}
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
      {rows.length === 0 ? (
        isNarrowed(view) ? (
          <div className="px-4 py-12 text-center" data-testid="admin-empty" data-narrowed="true">
            <p className="font-semibold">{t('admin.empty')}</p>
            <p className="mt-1 text-sm text-muted">{t('admin.emptyHint')}</p>
          </div>
        ) : (
          <div className="px-4 py-12 text-center" data-testid="admin-empty" data-narrowed="false">
            <p className="font-semibold">{t('admin.emptyNone')}</p>
          </div>
        )
      ) : null}
    </div>
  );
}
