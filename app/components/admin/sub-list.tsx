import { useState } from 'react';
import { itemCountName, itemInputName, itemInputValue } from '../../../domain/admin/form';
import type { ItemColumn } from '../../../domain/admin/screens';
import { useLocale } from '../../i18n/messages';
import { inputClass } from '../forms/fields';
import { ArrowUpIcon, CloseIcon, PlusIcon } from '../ui/icons';

type Row = { key: number; values: Record<string, string> };

/**
 * A list of records in the editor (a plan's modules): a row of inputs per item, added, removed
 * and moved up or down; the form sends the rows in their order (`v.list.0.field`, `v.list.rows`).
 */
export function SubListEditor({
  source,
  name,
  columns,
  items,
  options,
  onChange,
}: {
  source: string;
  name: string;
  columns: ItemColumn[];
  items: Record<string, unknown>[];
  options?: { value: string; label: string }[];
  /** The rows' values (every column's text), after a row is added, removed, moved or typed in. */
  onChange: (rows: Record<string, string>[]) => void;
}) {
  const { t } = useLocale();
  const [rows, setRows] = useState<Row[]>(() =>
    items.map((item, index) => ({
      key: index,
      values: Object.fromEntries(columns.map((column) => [column.name, itemInputValue(column, item[column.name])])),
    })),
  );
  const [nextKey, setNextKey] = useState(items.length);
  const label = (column: string) => t(`resources.${source}.items.${name}.${column}`);
  const valuesOf = (list: Row[]) =>
    list.map((row) => Object.fromEntries(columns.map((column) => [column.name, row.values[column.name] ?? ''])));
  const update = (next: Row[]) => {
    setRows(next);
    onChange(valuesOf(next));
  };
  const move = (index: number, by: number) => {
    const next = [...rows];
    const [row] = next.splice(index, 1);
    next.splice(index + by, 0, row as Row);
    update(next);
  };
  return (
    <div data-testid={`sub-list-${name}`}>
      <input type="hidden" name={itemCountName(name)} value={rows.length} />
      <div className="mt-1.5 overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead className="text-xs text-muted">
            <tr>
              {columns.map((column) => (
                <th key={column.name} scope="col" className="py-1 pr-2 font-semibold">
                  {label(column.name)}
                </th>
              ))}
              <th scope="col" className="py-1">
                <span className="sr-only">{t('admin.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={row.key} data-testid="sub-list-row">
                {columns.map((column) => {
                  const inputName = itemInputName(name, index, column.name);
                  const common = {
                    name: inputName,
                    'aria-label': `${label(column.name)} ${index + 1}`,
                    defaultValue: row.values[column.name] ?? '',
                    required: column.required,
                    className: `${inputClass} mt-0 min-w-24`,
                    onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
                      row.values[column.name] = event.target.value;
                      onChange(valuesOf(rows));
                    },
                  };
                  return (
                    <td key={column.name} className="py-1 pr-2">
                      {column.widget === 'ref' ? (
                        <select {...common}>
                          <option value="">—</option>
                          {(options ?? []).map((option) => (
                            <option key={option.value} value={option.value}>
                              {option.label}
                            </option>
                          ))}
                        </select>
                      ) : (
                        <input
                          type="text"
                          inputMode={
                            column.widget === 'text' ? undefined : column.widget === 'money' ? 'decimal' : 'numeric'
                          }
                          {...common}
                        />
                      )}
                    </td>
                  );
                })}
                <td className="py-1 whitespace-nowrap">
                  <button
                    type="button"
                    className="rounded p-1.5 text-muted hover:bg-sunken disabled:opacity-30"
                    onClick={() => move(index, -1)}
                    disabled={index === 0}
                    aria-label={t('admin.subList.up', { row: index + 1 })}
                  >
                    <ArrowUpIcon className="h-4 w-4" />
                  </button>
                  <button
                    type="button"
                    className="rounded p-1.5 text-muted hover:bg-sunken disabled:opacity-30"
                    onClick={() => move(index, 1)}
                    disabled={index === rows.length - 1}
                    aria-label={t('admin.subList.down', { row: index + 1 })}
                  >
                    <ArrowUpIcon className="h-4 w-4 rotate-180" />
                  </button>
                  <button
                    type="button"
                    className="rounded p-1.5 text-red-700 hover:bg-sunken dark:text-red-300"
                    onClick={() => update(rows.filter((other) => other !== row))}
                    aria-label={t('admin.subList.remove', { row: index + 1 })}
                    data-testid="sub-list-remove"
                  >
                    <CloseIcon className="h-4 w-4" />
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <button
        type="button"
        className="mt-2 inline-flex items-center gap-1 rounded-full border border-line px-3 py-1.5 text-sm font-semibold hover:bg-sunken"
        onClick={() => {
          update([...rows, { key: nextKey, values: {} }]);
          setNextKey(nextKey + 1);
        }}
        data-testid="sub-list-add"
      >
        <PlusIcon className="h-4 w-4" />
        {t('admin.subList.add')}
      </button>
    </div>
  );
}
