import knexFactory from 'knex';
import { describe, expect, it } from 'vitest';
import { users } from '../../../domain/entities/users.ts';
import { applyKeyset } from './cursor.ts';
import { EntityFields } from './fields.ts';
import { parseQuery } from './query.ts';

/** Only builds SQL: no connection is made. */
const knex = knexFactory({ client: 'pg' });
const fields = new EntityFields(users);
const AT = '2026-05-06 07:08:09.123456+00';

function keysetSql(sort: Record<string, 1 | -1> | undefined, keys: (string | null)[], forward: boolean) {
  const parsed = parseQuery(fields, sort ? { $sort: sort } : {});
  const builder = knex('users').select('id');
  applyKeyset(knex, fields, builder, parsed.sort, keys, forward);
  return builder.toSQL().toNative();
}

describe('applyKeyset', () => {
  it('is one row comparison when every key runs the same way', () => {
    expect(keysetSql({ createdAt: -1, _id: -1 }, [AT, 'b'], true)).toEqual({
      sql: 'select "id" from "users" where ("created_at", "id") < ($1, $2)',
      bindings: [AT, 'b'],
    });
    expect(keysetSql({ createdAt: -1, _id: -1 }, [AT, 'b'], false).sql).toContain('("created_at", "id") > ($1, $2)');
  });

  it('bounds the first key by a range an index can serve when the directions are mixed', () => {
    // The users' default order: newest first, then the id ascending.
    expect(keysetSql(undefined, [AT, 'b'], true)).toEqual({
      sql: 'select "id" from "users" where "created_at" <= $1 and (("created_at" < $2) or ("created_at" = $3 and "id" > $4))',
      bindings: [AT, AT, AT, 'b'],
    });
    // Going back to the previous page every comparison turns round.
    expect(keysetSql(undefined, [AT, 'b'], false)).toEqual({
      sql: 'select "id" from "users" where "created_at" >= $1 and (("created_at" > $2) or ("created_at" = $3 and "id" < $4))',
      bindings: [AT, AT, AT, 'b'],
    });
    expect(keysetSql({ role: 1, name: -1 }, ['member', 'Ann', 'b'], true).sql).toMatch(
      /^select "id" from "users" where "role" >= \$1 and \(/,
    );
  });

  it('adds no range for a null first key', () => {
    expect(keysetSql({ role: 1, name: -1 }, [null, 'Ann', 'b'], true).sql).toMatch(
      /^select "id" from "users" where \(\(/,
    );
  });
});
