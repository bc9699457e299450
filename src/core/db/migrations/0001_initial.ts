import { sql, type Kysely, type CreateTableBuilder } from 'kysely';
import type { Dialect } from '../connection.js';

// One schema for both dialects. Times are bigint epoch milliseconds; flags are integers.
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const pg = dialect === 'postgres';
  const serial = <T extends string>(t: CreateTableBuilder<T, any>) =>
    pg
      ? t.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  const cascade = (table: string) => (c: any) => c.notNull().references(`${table}.id`).onDelete('cascade');

  await serial(db.schema.createTable('areas'))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('email', 'text')
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('rating', 'integer', (c) => c.notNull())
    .addColumn('region', 'text')
    .addColumn('division', 'text')
    .addColumn('subdivision', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('user_area_activity')
    .addColumn('user_id', 'bigint', cascade('users'))
    .addColumn('area_id', 'integer', cascade('areas'))
    .addColumn('active', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_area_activity_pk', ['user_id', 'area_id'])
    .execute();

  await serial(db.schema.createTable('positions'))
    .addColumn('callsign', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('frequency', 'text', (c) => c.notNull())
    .addColumn('area_id', 'integer', (c) => c.references('areas.id'))
    .addColumn('rating', 'integer', (c) => c.notNull())
    .addColumn('required_facility', 'text')
    .execute();

  await serial(db.schema.createTable('endorsements'))
    .addColumn('user_id', 'bigint', cascade('users'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('rating', 'text')
    .addColumn('valid_from', 'bigint', (c) => c.notNull())
    .addColumn('valid_to', 'bigint')
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('revoked_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('endorsements_natural_key', ['user_id', 'type', 'valid_from'])
    .execute();
  await db.schema.createIndex('endorsements_type_idx').on('endorsements').columns(['type', 'user_id']).execute();

  await db.schema
    .createTable('endorsement_areas')
    .addColumn('endorsement_id', 'integer', cascade('endorsements'))
    .addColumn('area_id', 'integer', cascade('areas'))
    .addPrimaryKeyConstraint('endorsement_areas_pk', ['endorsement_id', 'area_id'])
    .execute();

  await db.schema
    .createTable('endorsement_positions')
    .addColumn('endorsement_id', 'integer', cascade('endorsements'))
    .addColumn('position_id', 'integer', cascade('positions'))
    .addPrimaryKeyConstraint('endorsement_positions_pk', ['endorsement_id', 'position_id'])
    .execute();

  await serial(db.schema.createTable('roles'))
    .addColumn('user_id', 'bigint', cascade('users'))
    .addColumn('area_id', 'integer', cascade('areas'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addUniqueConstraint('roles_natural_key', ['user_id', 'area_id', 'role'])
    .execute();

  await serial(db.schema.createTable('trainings'))
    .addColumn('user_id', 'bigint', cascade('users'))
    .addColumn('area_id', 'integer', cascade('areas'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addUniqueConstraint('trainings_natural_key', ['user_id', 'area_id', 'created_at'])
    .execute();
  await db.schema.createIndex('trainings_status_idx').on('trainings').columns(['status', 'user_id']).execute();

  await db.schema
    .createTable('training_ratings')
    .addColumn('training_id', 'integer', cascade('trainings'))
    .addColumn('rating', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('training_ratings_pk', ['training_id', 'rating'])
    .execute();

  await serial(db.schema.createTable('bookings'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('position_id', 'integer', (c) => c.notNull().references('positions.id'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('network_booking', 'text')
    .addColumn('time_start', 'bigint', (c) => c.notNull())
    .addColumn('time_end', 'bigint', (c) => c.notNull())
    .addColumn('training', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('event', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('exam', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addCheckConstraint('bookings_period_valid', sql`time_start < time_end`)
    .execute();
  await db.schema.createIndex('bookings_list_idx').on('bookings').columns(['deleted', 'time_start', 'id']).execute();
  await db.schema.createIndex('bookings_position_idx').on('bookings').columns(['position_id', 'time_start']).execute();

  // No two live bookings of one position may overlap (half-open intervals). The database
  // enforces it, so no interleaving of requests or processes can break it.
  if (pg) {
    // btree_gist (for "position_id WITH =") is created in public by migrateToLatest.
    await sql`ALTER TABLE bookings ADD CONSTRAINT bookings_no_overlap
      EXCLUDE USING gist (position_id WITH =, int8range(time_start, time_end) WITH &&)
      WHERE (deleted = 0)`.execute(db);
  } else {
    for (const [event, when] of [
      ['INSERT', 'NEW.deleted = 0'],
      ['UPDATE', 'NEW.deleted = 0'],
    ] as const) {
      await sql
        .raw(
          `CREATE TRIGGER bookings_no_overlap_${event.toLowerCase()} BEFORE ${event} ON bookings
           WHEN ${when} AND EXISTS (
             SELECT 1 FROM bookings b WHERE b.position_id = NEW.position_id AND b.deleted = 0
               AND b.id IS NOT NEW.id AND b.time_start < NEW.time_end AND NEW.time_start < b.time_end)
           BEGIN SELECT RAISE(ABORT, 'bookings_no_overlap'); END`,
        )
        .execute(db);
    }
  }

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('variant', 'text')
    .addColumn('compat', 'text')
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('expires_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
}
