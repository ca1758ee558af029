import { defineEntity, i18nTextOf, STAFF_ROLES } from './types.ts';

/**
 * The categories of the news and the blog: one list, a name in three languages and staff's order
 * (decision 056). The blog's five categories are seeded with their old keys as ids
 * (`restaurant-tips`), so the blog's addresses (`?category=restaurant-tips`) stay as they were;
 * a category staff add gets an id of its own. Anyone reads the list (the apps' and the blog's
 * filters); staff write it; removing one is an admin's, as records point at it.
 */
export const categories = defineEntity({
  service: 'categories',
  table: 'categories',
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    name: {
      kind: 'i18n',
      // A name on a filter chip: short in every language.
      schema: i18nTextOf(80),
      required: true,
      searchable: true,
      sortable: true,
      listed: true,
      exported: true,
      hints: { column: 1 },
    },
    order: {
      kind: 'integer',
      column: 'display_order',
      defaulted: true,
      filterable: true,
      sortable: true,
      listed: true,
      exported: true,
    },
    // Offered by the blog's category filter (its five, and any staff add for it); the news use every category.
    inBlog: { kind: 'boolean', defaulted: true, filterable: true, listed: true, exported: true },
    createdAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
    updatedAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true, listed: true },
  },
  defaultSort: { order: 1 },
  access: { find: 'public', get: 'public', create: STAFF_ROLES, patch: STAFF_ROLES, remove: ['admin'] },
});
