import { entities } from '../../domain/entities/index.ts';
import { columnOf, type EntityDef, type FieldDef, type FieldKind } from '../../domain/entities/types.ts';
import { LOCALES } from '../../domain/locales.ts';
import type { ColumnFact, SchemaFacts, TrigramIndex } from './schema-facts.ts';

/**
 * What an entity definition (domain/entities) must agree on with the table its migrations made:
 * columns and their types, NOT NULL, foreign keys, enum CHECKs and search indexes. Each check answers its problems,
 * each naming the entity, field and column: an empty list is agreement.
 */

type Definitions = Record<string, EntityDef>;

/** Text as the migrations store it: knex `string` is varchar, long bodies are text (no uuid columns). */
const TEXT = ['character varying', 'text'];

/** The column types each kind of field may be stored in. */
const COLUMN_TYPES = {
  id: TEXT,
  ref: TEXT,
  string: TEXT,
  email: TEXT,
  password: TEXT,
  enum: TEXT,
  integer: ['integer', 'bigint'],
  boolean: ['boolean'],
  date: ['timestamp with time zone'],
  i18n: ['jsonb'],
  list: ['jsonb'],
  object: ['jsonb'],
  // A calendar day, held as written (`1990-05-17`).
  day: ['character varying'],
} satisfies Record<FieldKind, readonly string[]>;

/** Tables that no entity describes, and why. */
const TABLES_WITHOUT_DEFINITION: Record<string, string> = {
  knex_migrations: 'the migrations that ran (Knex)',
  knex_migrations_lock: 'the lock held while migrations run (Knex)',
  site_settings:
    'feature flags and markets, one JSON value per key (server/services/features/features.ts, zod-validated)',
  missing_translations: 'message keys a page lacked (server/services/missing-translate/missing-translate.ts)',
  revoked_tokens: 'ids of signed-out tokens (server/auth/revocation.ts)',
  idempotency_keys: 'the first answers of writes sent with an Idempotency-Key (server/idempotency.ts)',
  socket_tickets:
    'one-time tickets of portal pages’ live connections, hashed, the token sealed (server/auth/tickets.ts, decision 027)',
  payment_sandbox_customers: 'the sandbox payment gateway’s side, not ours (server/payments/sandbox/, decision 019)',
  payment_sandbox_payment_methods:
    'the sandbox payment gateway’s side, not ours (server/payments/sandbox/, decision 019)',
  payment_sandbox_charges: 'the sandbox payment gateway’s side, not ours (server/payments/sandbox/, decision 019)',
  payment_sandbox_idempotency_keys:
    'the sandbox payment gateway’s side, not ours (server/payments/sandbox/, decision 019)',
  payment_sandbox_webhook_deliveries:
    'the sandbox payment gateway’s side, not ours (server/payments/sandbox/, decision 019)',
  email_verifications: 'codes sent to prove an email address, hashed (server/services/email-verifications/)',
  password_resets: 'mailed links that set a new password, hashed (server/services/password-resets/)',
  app_password_resets: 'the same links for the users of the company’s apps (server/services/password-resets/)',
  payment_customers: 'each user’s customer at a payment gateway, made once (server/services/payments/, decision 019)',
  payment_webhook_events:
    'gateway events received, each applied once (server/services/payments/webhooks.ts, decision 019)',
  exports:
    'exports of back-office tables and how far each has gone; the files are in the storage (server/services/exports/, decision 036)',
  push_deliveries:
    'one row per push message and device, written before the send; the statistics are counted from it on the message (server/push/sender.ts, decision 055)',
  invoice_sequences:
    'the next invoice number of each seller, locked while one is issued (server/services/orders/provision.ts)',
  ad_reports:
    'one row per ad, app device, hour and kind: what counts a view or click once (server/services/ads/, decision 057)',
  ad_picks: 'how often each app device was shown each ad in an hour, for the frequency cap (decision 057)',
  ad_days:
    'each ad’s views and clicks by day, kept when its past hours’ reports are pruned (read by adDays, decision 057)',
};

/** Columns of an entity's table that no field describes: the server alone writes them. */
const SERVER_ONLY_COLUMNS: Record<string, readonly string[]> = {
  // Mail in the outbox is never patched (access.patch 'none'): updated_at is the insert's default
  // and only repeats created_at, so the definition leaves it out.
  outbox: ['updated_at'],
  // The job's data, which a retry sends again: it may hold personal data and never leaves the server.
  mail_deliveries: ['job_data'],
  // When a push message's deliveries were written: the send job's own mark (decision 055).
  push_messages: ['targets_at'],
};

interface PlacedField {
  entity: string;
  definition: EntityDef;
  name: string;
  field: FieldDef;
  column: string;
  /** `table.column`, as problems name it. */
  where: string;
  fact: ColumnFact | undefined;
}

function placedFields(definitions: Definitions, facts: SchemaFacts): PlacedField[] {
  return Object.entries(definitions).flatMap(([entity, definition]) =>
    Object.entries(definition.fields).map(([name, field]) => {
      const column = columnOf(name, field);
      const fact = facts.tables.get(definition.table)?.get(column);
      return { entity, definition, name, field, column, where: `${definition.table}.${column}`, fact };
    }),
  );
}

/**
 * The definitions over one table: one describes it whole, any other is a scoped view of part of it
 * (`scope`, decision 052: `admins` over `users`). The whole one is the table's, which the column
 * checks hold to every column; a view is held to its own fields (`viewProblems`).
 */
function wholeDefinitions(definitions: Definitions): Definitions {
  return Object.fromEntries(Object.entries(definitions).filter(([, definition]) => !definition.scope));
}

export function tableProblems(definitions: Definitions, facts: SchemaFacts): string[] {
  const described = new Set(Object.values(definitions).map((definition) => definition.table));
  const byTable = new Map<string, string[]>();
  for (const [entity, definition] of Object.entries(wholeDefinitions(definitions)))
    byTable.set(definition.table, [...(byTable.get(definition.table) ?? []), entity]);
  return [
    ...[...byTable]
      .filter(([, names]) => names.length > 1)
      .map(
        ([table, names]) =>
          `${table}: described whole by ${names.join(' and ')}; one definition describes a table, others are scoped views (scope)`,
      ),
    ...Object.entries(definitions)
      .filter(([, definition]) => !facts.tables.has(definition.table))
      .map(([entity, definition]) => `${entity}: table ${definition.table} does not exist`),
    ...[...facts.tables.keys()]
      .filter((table) => !described.has(table) && !(table in TABLES_WITHOUT_DEFINITION))
      .map((table) => `${table}: no entity describes this table and TABLES_WITHOUT_DEFINITION does not list it`),
    ...Object.keys(TABLES_WITHOUT_DEFINITION)
      .filter((table) => !facts.tables.has(table) || described.has(table))
      .map((table) => `TABLES_WITHOUT_DEFINITION lists ${table}, which does not exist or has a definition`),
  ];
}

export function typeProblems(definitions: Definitions, facts: SchemaFacts): string[] {
  return placedFields(definitions, facts).flatMap(({ entity, name, field, where, fact }) => {
    if (!fact) return [`${entity}.${name}: column ${where} does not exist`];
    const types: readonly string[] = COLUMN_TYPES[field.kind];
    if (types.includes(fact.type)) return [];
    return [`${entity}.${name} (${field.kind}): ${where} is ${fact.type}, expected ${types.join(' or ')}`];
  });
}

/** Required fields on NOT NULL columns; a required or server-set field for each NOT NULL column without a default. */
export function nullabilityProblems(definitions: Definitions, facts: SchemaFacts): string[] {
  return placedFields(definitions, facts).flatMap(({ entity, name, field, where, fact }) => {
    if (!fact) return [];
    if (field.required && !field.readonly && fact.nullable) {
      return [`${entity}.${name} is required but ${where} allows NULL`];
    }
    if (!fact.nullable && !fact.hasDefault && !field.required && !field.readonly) {
      return [`${where} is NOT NULL without a default, but ${entity}.${name} is neither required nor readonly`];
    }
    return [];
  });
}

/**
 * What validation lets be null agrees with the table: a writable field that is neither required
 * nor `defaulted` accepts null, so its column must allow it; a `defaulted` field refuses null, so
 * its column is NOT NULL with a default.
 */
export function nullWriteProblems(definitions: Definitions, facts: SchemaFacts): string[] {
  const problems: string[] = [];
  for (const { entity, name, field, where, fact } of placedFields(definitions, facts)) {
    if (!fact || field.readonly || field.required) continue;
    if (!field.defaulted && !fact.nullable)
      problems.push(`${entity}.${name} accepts null (neither required nor defaulted) but ${where} is NOT NULL`);
    if (field.defaulted && (fact.nullable || !fact.hasDefault))
      problems.push(`${entity}.${name} is defaulted but ${where} is not NOT NULL with a default`);
  }
  return problems;
}

/**
 * A scoped view (`scope`) agrees with the definition of its whole table: that one exists; each of
 * the view's fields is one of its columns, of the same kind (a view may name it otherwise: `type`
 * for `role`); its scope names enumerations of the view whose values are the scope's, and values
 * the whole allows; and every NOT NULL column without a default is a field of the view, so that a
 * create through it can fill it. Columns the view leaves out are the whole's to describe.
 */
export function viewProblems(definitions: Definitions, facts: SchemaFacts): string[] {
  const wholes = Object.values(wholeDefinitions(definitions));
  return Object.entries(definitions).flatMap(([entity, view]) => {
    if (!view.scope) return [];
    const whole = wholes.find((definition) => definition.table === view.table);
    if (!whole) return [`${entity} is a scoped view of ${view.table}, which no unscoped definition describes`];
    const wholeByColumn = new Map(Object.entries(whole.fields).map(([name, field]) => [columnOf(name, field), field]));
    const problems: string[] = [];
    for (const [name, field] of Object.entries(view.fields)) {
      const column = columnOf(name, field);
      const same = wholeByColumn.get(column);
      if (!same) problems.push(`${entity}.${name}: ${view.table}.${column} is not a field of ${whole.service}`);
      else if (same.kind !== field.kind)
        problems.push(
          `${entity}.${name} is ${field.kind}, but ${whole.service} has ${view.table}.${column} as ${same.kind}`,
        );
    }
    for (const [name, values] of Object.entries(view.scope)) {
      const field = view.fields[name];
      if (!field) {
        problems.push(`${entity}: its scope names ${name}, which is not one of its fields`);
        continue;
      }
      const listed = [...(field.enum ?? [])].sort().join();
      if (field.kind === 'enum' && listed !== [...values].map(String).sort().join())
        problems.push(
          `${entity}.${name}: its values ${field.enum?.join(', ')} are not its scope's, ${values.join(', ')}`,
        );
      const allowed = wholeByColumn.get(columnOf(name, field))?.enum;
      const outside = values.filter((value) => allowed && !allowed.includes(String(value)));
      if (outside.length > 0)
        problems.push(
          `${entity}.${name}: its scope holds ${outside.join(', ')}, which ${whole.service} does not allow`,
        );
    }
    const viewColumns = new Set(Object.entries(view.fields).map(([name, field]) => columnOf(name, field)));
    for (const [column, fact] of facts.tables.get(view.table) ?? []) {
      if (!fact.nullable && !fact.hasDefault && !viewColumns.has(column))
        problems.push(
          `${view.table}.${column} is NOT NULL without a default, but the scoped view ${entity} has no field for it`,
        );
    }
    return problems;
  });
}

export function extraColumnProblems(definitions: Definitions, facts: SchemaFacts): string[] {
  // A scoped view describes part of its table on purpose (viewProblems); the whole one, every column.
  return Object.entries(wholeDefinitions(definitions)).flatMap(([entity, definition]) => {
    const fieldColumns = new Set(Object.entries(definition.fields).map(([name, field]) => columnOf(name, field)));
    const serverOnly = SERVER_ONLY_COLUMNS[definition.table] ?? [];
    const columns = [...(facts.tables.get(definition.table)?.keys() ?? [])];
    return [
      ...columns
        .filter((column) => !fieldColumns.has(column) && !serverOnly.includes(column))
        .map((column) => `${definition.table}.${column}: no field of ${entity}, and not listed as server-only`),
      ...serverOnly
        .filter((column) => !columns.includes(column) || fieldColumns.has(column))
        .map((column) => `SERVER_ONLY_COLUMNS lists ${definition.table}.${column}, which does not exist or is a field`),
    ];
  });
}

/** A ref field's column references its service's table; no other field's column references anything. */
export function foreignKeyProblems(definitions: Definitions, facts: SchemaFacts): string[] {
  const byService = new Map([...Object.values(entities), ...Object.values(definitions)].map((d) => [d.service, d]));
  return placedFields(definitions, facts).flatMap(({ entity, definition, name, field, column, where }) => {
    const keys = facts.foreignKeys.filter((key) => key.table === definition.table && key.columns.join() === column);
    if (field.kind !== 'ref') {
      return keys.map(
        (key) => `${entity}.${name} is a ${field.kind} field, but ${key.name} references ${key.referencedTable}`,
      );
    }
    const target = field.ref === undefined ? undefined : byService.get(field.ref);
    if (!target) return [`${entity}.${name} refers to service '${field.ref}', which no entity defines`];
    const wanted = `${target.table}(id)`;
    if (keys.length === 0) return [`${entity}.${name}: no foreign key from ${where} to ${wanted}`];
    return keys
      .map((key) => ({ key, points: `${key.referencedTable}(${key.referencedColumns.join(', ')})` }))
      .filter(({ points }) => points !== wanted)
      .map(({ key, points }) => `${entity}.${name}: ${key.name} points to ${points}, not ${wanted}`);
  });
}

/** The quoted values of a CHECK that lists them (`status IN ('draft', 'published')` as PostgreSQL prints it). */
function checkValues(definition: string): string[] {
  return [...definition.matchAll(/'((?:[^']|'')*)'::/g)].map((match) => (match[1] ?? '').replaceAll("''", "'"));
}

/** An enum's values equal those of the column's CHECK, where there is one, and each fits in the column. */
export function enumProblems(definitions: Definitions, facts: SchemaFacts): string[] {
  return placedFields(definitions, facts).flatMap(({ entity, definition, name, field, column, where, fact }) => {
    if (field.kind !== 'enum' || !fact) return [];
    const values = field.enum ?? [];
    const problems = values
      .filter((value) => fact.maxLength !== null && value.length > fact.maxLength)
      .map((value) => `${entity}.${name}: '${value}' does not fit ${where} (${fact.type}(${fact.maxLength}))`);
    for (const check of facts.checks.filter((c) => c.table === definition.table && c.columns.join() === column)) {
      const allowed = checkValues(check.definition);
      if (allowed.length === 0) continue;
      if ([...allowed].sort().join() === [...values].sort().join()) continue;
      const differ = `${check.name} allows ${allowed.join(', ')}; the definition has ${values.join(', ')}`;
      problems.push(`${entity}.${name}: ${differ}`);
    }
    return problems;
  });
}

/** What a trigram index over one language of a translated field reads, as PostgreSQL prints its key. */
export const translatedKey = (column: string, locale: string) => `(${column} ->> '${locale}'::text)`;

/**
 * Every searchable field has a trigram index that its search can use: on the column itself, or on
 * each language of a translated field (a search ORs them, so one missing language reads the table).
 * `indexes` is `trigramIndexes`' report.
 */
export function searchIndexProblems(
  definitions: Definitions,
  indexes: Record<string, Record<string, TrigramIndex[]>>,
): string[] {
  return Object.entries(definitions).flatMap(([entity, definition]) =>
    Object.entries(definition.fields)
      .filter(([, field]) => field.searchable)
      .flatMap(([name, field]) => {
        const column = columnOf(name, field);
        const keys = (indexes[entity]?.[name] ?? []).map((index) => index.key);
        const wanted = field.kind === 'i18n' ? LOCALES.map((locale) => translatedKey(column, locale)) : [column];
        return wanted
          .filter((key) => !keys.includes(key))
          .map(
            (key) =>
              `${entity}.${name} is searchable but ${definition.table} has no trigram (gin_trgm_ops) index on ${key}`,
          );
      }),
  );
}
