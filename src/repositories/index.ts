import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { apiKeysRepository } from './apiKeys.js';
import { bookingsRepository } from './bookings.js';
import { positionsRepository } from './positions.js';
import { usersRepository } from './users.js';

export function createRepositories(db: Kysely<Database>) {
  return {
    apiKeys: apiKeysRepository(db),
    bookings: bookingsRepository(db),
    positions: positionsRepository(db),
    users: usersRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
