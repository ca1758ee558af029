import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { z } from '../../../domain/zod.ts';
import {
  columnsOf,
  editorFieldsOf,
  exportedFieldsOf,
  filtersOf,
  searchFieldsOf,
  type AdminAction,
} from '../../../domain/admin/screens';
import { parseView, viewQuery } from '../../../domain/admin/view';
import { defineEntity } from '../../../domain/entities/types';
import { DataTable, type Row } from './data-table';
import { RecordForm } from './record-form';

/*
 * A definition written for this test only, not an entity of the product, gives a whole screen:
 * its table's columns, search, filters, query, actions, and its editor's inputs, rendered by the
 * same components as every entity's, with no code of its own (issue 21).
 */

const gadgets = defineEntity({
  service: 'gadgets',
  table: 'gadgets',
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    name: {
      kind: 'i18n',
      required: true,
      searchable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 1 },
    },
    colour: { kind: 'enum', enum: ['red', 'green'], filterable: true, listed: true, exported: true },
    price: {
      kind: 'integer',
      schema: z.number().int().min(0),
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { widget: 'money' },
    },
    inStock: { kind: 'boolean', filterable: true, listed: true },
    secret: { kind: 'string', hidden: true },
    createdAt: {
      kind: 'date',
      readonly: true,
      defaulted: true,
      sortable: true,
      filterable: true,
      listed: true,
      exported: true,
    },
    updatedAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
  },
  defaultSort: { createdAt: -1 },
  access: {
    find: ['editor', 'admin'],
    get: ['editor', 'admin'],
    create: ['admin'],
    patch: ['editor', 'admin'],
    remove: ['admin'],
  },
});

const messages = {
  admin: { edit: 'Edit', remove: 'Delete', yes: 'Yes', no: 'No', editor: { save: 'Save' }, cancel: 'Cancel' },
  resources: {
    gadgets: {
      fields: {
        name: 'Name',
        colour: 'Colour',
        price: 'Price',
        inStock: 'In stock',
        createdAt: 'Created',
        updatedAt: 'Updated',
      },
      values: { colour: { red: 'Red', green: 'Green' } },
    },
  },
};

/** Renders an element inside a router whose language route holds the messages, as a page has them. */
function render(element: React.ReactElement): string {
  const router = createMemoryRouter(
    [{ id: 'routes/locale-layout', path: '/', loader: () => ({ locale: 'en', messages }), Component: () => element }],
    { initialEntries: ['/'], hydrationData: { loaderData: { 'routes/locale-layout': { locale: 'en', messages } } } },
  );
  return renderToString(createElement(RouterProvider, { router }));
}

const row: Row = {
  _id: 'g1',
  name: { en: 'Widget' },
  colour: 'red',
  price: 1250,
  inStock: true,
  createdAt: '2026-03-01T17:00:00Z',
  updatedAt: '2026-03-01T17:00:00Z',
};

describe('a screen made from a definition alone', () => {
  it('has its table, search, filters and actions from the definition', () => {
    expect(columnsOf(gadgets).map((field) => field.name)).toEqual(['name', 'colour', 'price', 'inStock', 'createdAt']);
    expect(searchFieldsOf(gadgets)).toEqual(['name']);
    expect(filtersOf(gadgets).map((filter) => `${filter.name}:${filter.type}`)).toEqual([
      'colour:choice',
      'price:range',
      'inStock:boolean',
      'createdAt:dateRange',
      'updatedAt:dateRange',
    ]);
    expect(exportedFieldsOf(gadgets).map((field) => field.name)).toEqual(['name', 'colour', 'price', 'createdAt']);
    const view = parseView(gadgets, new URLSearchParams('q=wid&sort=-price&f.colour=red&f.price.max=20'));
    expect(viewQuery(gadgets, view)).toMatchObject({
      $sort: { price: -1, _id: 1 },
      colour: 'red',
      price: { $lte: 2000 },
      $or: [{ name: { $regex: 'wid', $options: 'i' } }],
    });
  });

  it('renders its table with the same components as every entity: labels, values by widget, row actions', () => {
    const html = render(
      createElement(DataTable, {
        source: 'gadgets',
        rows: [row],
        columns: columnsOf(gadgets),
        view: parseView(gadgets, new URLSearchParams()),
        references: {},
        actions: new Set<AdminAction>(['edit', 'remove']),
        selection: {},
        onSelectionChange: () => undefined,
        sortHref: (field) => `/?sort=${field}`,
        editHref: (id) => `/?editor=${id}`,
        cloneHref: (id) => `/?clone=${id}`,
        onRemove: () => undefined,
        nameOf: () => 'Widget',
        expanded: new Set<string>(),
        expandHref: (id) => `/?open=${id}`,
        detailFields: [],
        rowActions: [],
        onRowAction: () => undefined,
      }),
    );
    for (const text of [
      'Name',
      'Colour',
      'Price',
      'In stock',
      'Created',
      'Widget',
      'Red',
      'HK$12.50',
      'Yes',
      '2026-03-02',
      'Edit',
      'Delete',
    ])
      expect(html).toContain(text);
    // A hidden field is never a column; sortable columns link to their sort.
    expect(html).not.toContain('secret');
    expect(html).toContain('href="/?sort=price"');
  });

  it('renders its editor with an input per field the role may write', () => {
    const html = render(
      createElement(RecordForm, {
        source: 'gadgets',
        fields: editorFieldsOf(gadgets, 'editor', 'patch'),
        record: row,
        id: 'g1',
        version: '2026-03-01T17:00:00.000Z',
        options: {},
        onCancel: () => undefined,
        formId: 'test',
      }),
    );
    for (const name of ['v.name.en', 'v.name.zh-hk', 'v.colour', 'v.price', 'v.inStock'])
      expect(html).toContain(`name="${name}"`);
    expect(html).toContain('value="12.50"');
    expect(html).not.toContain('name="v.createdAt"');
    expect(html).not.toContain('name="v.secret"');
  });
});
