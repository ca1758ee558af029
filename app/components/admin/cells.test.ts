import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { columnsOf } from '../../../domain/admin/screens';
import { entities } from '../../../domain/entities/index';
import en from '../../../locales/en.json';
import zhHk from '../../../locales/zh-hk.json';
import { translator } from '../../i18n/messages';
import { CellValue } from './cells';

/** An order's buyer as its table cell shows it, with the names the page read for its references. */
function buyerCell(references: Record<string, string> | undefined, messages = en, locale: 'en' | 'zh-hk' = 'en') {
  const field = columnsOf(entities.orders).find((column) => column.name === 'user');
  if (!field) throw new Error('orders have a buyer column');
  return renderToStaticMarkup(
    createElement(CellValue, {
      field,
      value: 'user-0001',
      row: { user: 'user-0001' },
      source: 'orders',
      references,
      t: translator(messages, { locale }),
      locale,
    }),
  );
}

describe('a reference in a table cell', () => {
  it('shows its record by name', () => {
    expect(buyerCell({ 'user-0001': 'Mei Chan' })).toBe('<span>Mei Chan</span>');
  });

  it('shows a user that no longer exists as such, never by its raw id, in the reader’s language', () => {
    expect(buyerCell({})).toContain('No such user');
    expect(buyerCell({})).not.toContain('user-0001');
    expect(buyerCell({}, zhHk, 'zh-hk')).toContain('沒有此用戶');
  });

  it('shows the id when no names were read for the column at all (the reader may not read them)', () => {
    expect(buyerCell(undefined)).toBe('<span>user-0001</span>');
  });
});
