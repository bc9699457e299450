// Every repository, over the database or a transaction: services read through
// createRepositories(db.kysely, db.dialect) and write through the Write's `repos` (src/services/write.ts).
import type { Dialect, Executor } from '../db/connection.js';
import { activityRepository } from './activity.js';
import { apiKeysRepository } from './api-keys.js';
import { auditRepository } from './audit.js';
import { bookingsRepository } from './bookings.js';
import { calendarRepository } from './calendar.js';
import { controllingSessionsRepository } from './controlling-sessions.js';
import { deprecatedRepository } from './deprecated.js';
import { divisionDataRepository } from './division-data.js';
import { endorsementsRepository } from './endorsements.js';
import { eventsRepository } from './events.js';
import { exportRepository } from './export.js';
import { healthRepository } from './health.js';
import { idempotencyKeysRepository } from './idempotency-keys.js';
import { importRepository } from './import.js';
import { leasesRepository } from './leases.js';
import { mailRepository } from './mail.js';
import { memberBookingsRepository } from './member-bookings.js';
import { networkPushesRepository } from './network-pushes.js';
import { outboxFiguresRepository } from './outbox-figures.js';
import { positionsRepository } from './positions.js';
import { rolesRepository } from './roles.js';
import { rosterRepository } from './roster.js';
import { rosterStagingRepository } from './roster-staging.js';
import { sessionsRepository } from './sessions.js';
import { staffRepository } from './staff.js';
import { trainingRecordsRepository } from './training-records.js';
import { trainingsRepository } from './trainings.js';
import { usersRepository } from './users.js';
import { webhookDeliveriesRepository } from './webhook-deliveries.js';
import { webhooksRepository } from './webhooks.js';

export function createRepositories(db: Executor, dialect: Dialect) {
  return {
    activity: activityRepository(db),
    apiKeys: apiKeysRepository(db),
    audit: auditRepository(db),
    bookings: bookingsRepository(db),
    calendar: calendarRepository(db),
    controllingSessions: controllingSessionsRepository(db),
    deprecated: deprecatedRepository(db),
    divisionData: divisionDataRepository(db, dialect),
    endorsements: endorsementsRepository(db, dialect),
    events: eventsRepository(db, dialect),
    export: exportRepository(db),
    health: healthRepository(db),
    idempotencyKeys: idempotencyKeysRepository(db),
    import: importRepository(db, dialect),
    leases: leasesRepository(db),
    mail: mailRepository(db, dialect),
    memberBookings: memberBookingsRepository(db),
    networkPushes: networkPushesRepository(db, dialect),
    outboxFigures: outboxFiguresRepository(db),
    positions: positionsRepository(db),
    roles: rolesRepository(db),
    roster: rosterRepository(db),
    rosterStaging: rosterStagingRepository(db, dialect),
    sessions: sessionsRepository(db),
    staff: staffRepository(db),
    trainingRecords: trainingRecordsRepository(db),
    trainings: trainingsRepository(db, dialect),
    users: usersRepository(db),
    webhookDeliveries: webhookDeliveriesRepository(db, dialect),
    webhooks: webhooksRepository(db, dialect),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
