import type { Db } from '../db/connection.js';
import { apiKeysRepository } from './apiKeys.js';
import { bookingsRepository } from './bookings.js';
import { calendarRepository } from './calendar.js';
import { networkPushesRepository } from './networkPushes.js';
import { positionsRepository } from './positions.js';
import { usersRepository } from './users.js';

export function createRepositories(db: Db) {
  return {
    apiKeys: apiKeysRepository(db),
    bookings: bookingsRepository(db.kysely),
    calendar: calendarRepository(db.kysely),
    networkPushes: networkPushesRepository(db.kysely, db.dialect),
    positions: positionsRepository(db.kysely),
    users: usersRepository(db.kysely),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
