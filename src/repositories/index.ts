import type { Db } from '../db/connection.js';
import { apiKeysRepository } from './api-keys.js';
import { bookingsRepository } from './bookings.js';
import { networkPushesRepository } from './network-pushes.js';
import { healthRepository } from './health.js';
import { membersRepository } from './members.js';
import { outboxFiguresRepository } from './outbox-figures.js';
import { calendarRepository } from './calendar.js';
import { positionsRepository } from './positions.js';
import { sessionsRepository } from './sessions.js';
import { usersRepository } from './users.js';

export function createRepositories(db: Db) {
  return {
    apiKeys: apiKeysRepository(db.kysely),
    bookings: bookingsRepository(db.kysely),
    calendar: calendarRepository(db.kysely),
    networkPushes: networkPushesRepository(db.kysely, db.dialect),
    health: healthRepository(db.kysely),
    members: membersRepository(db.kysely),
    outboxFigures: outboxFiguresRepository(db.kysely),
    positions: positionsRepository(db.kysely),
    sessions: sessionsRepository(db.kysely),
    users: usersRepository(db.kysely),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
