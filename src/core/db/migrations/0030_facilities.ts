import { sql, type Kysely } from 'kysely';

// Facilities with tiers (contract §22): a facility is the name positions require
// (positions.required_facility); a row here gives it a tier (T1, T2, or none) and a description.
// Names positions require without a row here are facilities without a tier.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE facilities (
    name text PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 100),
    tier text CHECK (tier IN ('T1', 'T2')),
    description text CHECK (length(description) <= 500),
    updated_at bigint NOT NULL
  )`.execute(db);
}
