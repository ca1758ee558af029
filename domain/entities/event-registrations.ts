import { defineEntity, STAFF_ROLES } from './types.ts';

/**
 * An app user's place at a news item's event (decision 056): one per app user and item. The app
 * user registers and cancels their own (the service counts the places under the item's row lock);
 * staff see, filter and export the registrants, whose names and addresses are personal data.
 */
export const eventRegistrations = defineEntity({
  service: 'eventRegistrations',
  table: 'event_registrations',
  personalData: true,
  fields: {
    _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
    news: {
      kind: 'ref',
      ref: 'news',
      column: 'news_id',
      required: true,
      filterable: true,
      listed: true,
      exported: true,
    },
    // The caller, whatever a create says (the owner rule); nobody changes it (no patch).
    appUser: {
      kind: 'ref',
      ref: 'appUsers',
      column: 'app_user_id',
      required: true,
      filterable: true,
      listed: true,
      exported: true,
    },
    // The registrant's name and address as they were when registering: what staff's list shows and exports.
    name: { kind: 'string', readonly: true, searchable: true, listed: true, exported: true, hints: { column: 1 } },
    email: { kind: 'email', readonly: true, searchable: true, filterable: true, listed: true, exported: true },
    createdAt: {
      kind: 'date',
      readonly: true,
      defaulted: true,
      sortable: true,
      filterable: true,
      listed: true,
      exported: true,
    },
  },
  populate: {
    news: { service: 'news', path: 'news' },
  },
  defaultSort: { createdAt: -1 },
  owner: { field: 'appUser', of: 'appUsers', allRows: { read: STAFF_ROLES, write: ['admin'] } },
  access: {
    find: ['editor', 'admin', 'appUser'],
    get: ['editor', 'admin', 'appUser'],
    create: ['appUser'],
    patch: 'none',
    remove: ['admin', 'appUser'],
  },
});
