import { defineEntity, i18nTextOf, STAFF_ROLES } from './types.ts';

/**
 * A lookup list (the specification's entity-field config): a short list of names in the three
 * languages, in staff's order, that staff edit and that any definition can use for a field's
 * choices (a `ref` field to the list: the editor offers its names, the table filters by them).
 * The apps read them to fill their own pickers, so anyone may read; staff write; removing a name
 * is an admin's, as with the catalogue. Each list is its own service and table, named as the
 * specification names it (decision 050).
 */
function lookupList<const S extends string, const T extends string>(service: S, table: T) {
  return defineEntity({
    service,
    table,
    fields: {
      _id: { kind: 'id', column: 'id', readonly: true, sortable: true, filterable: true },
      name: {
        kind: 'i18n',
        // A name in a picker: short in every language.
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
      createdAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true },
      updatedAt: { kind: 'date', readonly: true, defaulted: true, sortable: true, filterable: true, listed: true },
    },
    defaultSort: { order: 1 },
    access: { find: 'public', get: 'public', create: STAFF_ROLES, patch: STAFF_ROLES, remove: ['admin'] },
  });
}

/** The professions a doctor in the apps' directory is listed under. */
export const doctorprofessions = lookupList('doctorprofessions', 'doctor_professions');
/** The districts a doctor's practice is in. */
export const doctordistricts = lookupList('doctordistricts', 'doctor_districts');
/** The genders a doctor is listed as. */
export const doctorgenders = lookupList('doctorgenders', 'doctor_genders');

/** The lookup lists, by service path. */
export const LOOKUP_LISTS = ['doctorprofessions', 'doctordistricts', 'doctorgenders'] as const;
export type LookupList = (typeof LOOKUP_LISTS)[number];
