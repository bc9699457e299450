// Control Center's database on the test MariaDB (127.0.0.1:3306, root without a password): the schema
// of one of its releases with the fixture data (test/fixtures/controlcenter) and whatever a test adds,
// read by a user who may only SELECT, as an operator's move would be.
import fs from 'node:fs';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { ROOT } from './processes.js';

const FIXTURES = path.join(ROOT, 'test/fixtures/controlcenter');
/** The test MariaDB as its administrator. */
export const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };

export interface ControlCenterDatabases {
  /** The reader: it may only SELECT; its password is never to be printed. */
  readonly user: string;
  readonly password: string;
  /** A new database of that release with `extraSql` run after the fixtures; its URL for the reader. */
  create(version: '6.4.3' | '7.0', extraSql?: string): Promise<string>;
  /** Drops every database made and the reader. */
  dropAll(): Promise<void>;
}

/** Databases and their reader named after `label` and this process, so files running at once stay apart. */
export function controlCenterDatabases(label: string): ControlCenterDatabases {
  const user = `cc_${label}_${process.pid}`;
  const password = `Cc-${label}-pw-${process.pid}`;
  const created: string[] = [];
  return {
    user,
    password,
    async create(version, extraSql = '') {
      const name = `cc_${label}_${version.replace(/\./g, '_')}_${process.pid}_${created.length}`;
      const conn = await mysql.createConnection({ ...MARIADB, multipleStatements: true });
      try {
        await conn.query(`CREATE USER IF NOT EXISTS '${user}'@'%' IDENTIFIED BY '${password}'`);
        await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await conn.query(`CREATE DATABASE \`${name}\``);
        created.push(name);
        await conn.query(`GRANT SELECT ON \`${name}\`.* TO '${user}'@'%'`);
        await conn.changeUser({ database: name });
        const sql = ['schema-' + version, 'data', 'roles-' + version].map((f) => fs.readFileSync(path.join(FIXTURES, `${f}.sql`), 'utf8'));
        await conn.query(sql.join('\n') + '\n' + extraSql);
      } finally {
        await conn.end();
      }
      return `mysql://${user}:${password}@127.0.0.1:3306/${name}`;
    },
    async dropAll() {
      const conn = await mysql.createConnection(MARIADB);
      try {
        for (const name of created.splice(0)) await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await conn.query(`DROP USER IF EXISTS '${user}'@'%'`);
      } finally {
        await conn.end();
      }
    },
  };
}
