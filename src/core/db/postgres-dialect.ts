// Kysely's own introspector lists every table with its columns, which takes seconds on a server with
// many schemas; migrating needs only the table names on the search_path.
import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
  PostgresDialect,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';

class SearchPathIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<SchemaMetadata>`SELECT unnest(current_schemas(false)) AS name`.execute(this.db);
    return rows;
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; is_view: boolean }>`
      SELECT c.relname AS name, n.nspname AS schema, c.relkind = 'v' AS is_view
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p', 'v') AND n.nspname = ANY (current_schemas(false))`.execute(this.db);
    return rows.map((r) => ({ name: r.name, schema: r.schema, isView: r.is_view, columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

export class SearchPathPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SearchPathIntrospector(db);
  }
}
