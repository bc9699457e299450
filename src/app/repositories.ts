// Every repository, over the database or a transaction: services read through ReadRepositories (the
// composition root's `repos`) and change only through the Write's `repos` (src/core/write.ts).
import type { Dialect, Executor } from '../core/db/connection.js';
import { activityNoticesRepository } from '../features/activity/activity-notices.repository.js';
import { activityRepository } from '../features/activity/activity.repository.js';
import { apiKeysRepository } from '../features/api-keys/api-keys.repository.js';
import { attachmentsRepository } from '../features/trainings/attachments.repository.js';
import { auditRepository } from '../features/audit/audit.repository.js';
import { bookingsRepository } from '../features/bookings/bookings.repository.js';
import { calendarRepository } from '../features/calendar/calendar.repository.js';
import { controllingSessionsRepository } from '../features/activity/controlling-sessions.repository.js';
import { demoPeopleRepository } from '../features/sign-in/demo-people.repository.js';
import { deprecatedRepository } from '../features/deprecated/deprecated.repository.js';
import { divisionDataRepository } from '../features/transfer/division-data.repository.js';
import { endorsementsRepository } from '../features/endorsements/endorsements.repository.js';
import { eventsRepository } from '../features/events/events.repository.js';
import { exportRepository } from '../features/transfer/export.repository.js';
import { feedbackRepository } from '../features/feedback/feedback.repository.js';
import { healthRepository } from '../features/operations/health.repository.js';
import { idempotencyKeysRepository } from '../features/bookings/idempotency-keys.repository.js';
import { importRepository } from '../features/transfer/import.repository.js';
import { leasesRepository } from '../core/workers/leases.repository.js';
import { mailRepository } from '../core/mail.repository.js';
import { memberBookingsRepository } from '../features/bookings/member-bookings.repository.js';
import { noticesRepository } from '../features/notices/notices.repository.js';
import { divisionCptRepository } from '../features/division-api/cpt.repository.js';
import { divisionRequestsRepository } from '../features/division-api/division-requests.repository.js';
import { divisionSyncsRepository } from '../features/division-api/division-syncs.repository.js';
import { networkPushesRepository } from '../features/network/pushes.repository.js';
import { outboxFiguresRepository } from '../features/operations/outbox-figures.repository.js';
import { privacyRepository } from '../features/settings/privacy.repository.js';
import { eraseRepository } from '../features/settings/erase.repository.js';
import { positionsRepository } from '../features/positions/positions.repository.js';
import { rolesRepository } from '../features/roles/roles.repository.js';
import { rosterRepository } from '../features/roster/roster.repository.js';
import { rosterStagingRepository } from '../features/roster/roster-staging.repository.js';
import { soloWarningsRepository } from '../features/endorsements/solo-warnings.repository.js';
import { sessionsRepository } from '../features/sign-in/sessions.repository.js';
import { staffFiguresRepository } from '../features/reports/staff-figures.repository.js';
import { staffRepository } from '../features/staff/staff.repository.js';
import { sweatboxRepository } from '../features/sweatbox/sweatbox.repository.js';
import { studentsRepository } from '../features/staff/students.repository.js';
import { trainingFiguresRepository } from '../features/reports/training-figures.repository.js';
import { tasksRepository } from '../features/tasks/tasks.repository.js';
import { facilitiesRepository } from '../features/positions/facilities.repository.js';
import { trainingHistoryRepository } from '../features/trainings/history.repository.js';
import { trainingLinksRepository } from '../features/trainings/links.repository.js';
import { trainingExaminationsRepository } from '../features/trainings/examinations.repository.js';
import { trainingRecordsRepository } from '../features/trainings/records.repository.js';
import { reportTemplatesRepository } from '../features/trainings/templates.repository.js';
import { trainingsRepository } from '../features/trainings/trainings.repository.js';
import { votesRepository } from '../features/votes/votes.repository.js';
import { usersRepository } from '../features/users/users.repository.js';
import { webhookDeliveriesRepository } from '../features/webhooks/deliveries.repository.js';
import { webhooksRepository } from '../features/webhooks/webhooks.repository.js';

// Each factory over (db, dialect): those that need no dialect ignore it.
const FACTORIES = {
  activity: activityRepository,
  activityNotices: activityNoticesRepository,
  apiKeys: apiKeysRepository,
  attachments: attachmentsRepository,
  audit: auditRepository,
  bookings: bookingsRepository,
  calendar: calendarRepository,
  controllingSessions: controllingSessionsRepository,
  demoPeople: demoPeopleRepository,
  deprecated: deprecatedRepository,
  divisionData: divisionDataRepository,
  divisionCpt: divisionCptRepository,
  divisionRequests: divisionRequestsRepository,
  divisionSyncs: divisionSyncsRepository,
  endorsements: endorsementsRepository,
  events: eventsRepository,
  export: exportRepository,
  feedback: feedbackRepository,
  health: healthRepository,
  idempotencyKeys: idempotencyKeysRepository,
  import: importRepository,
  leases: leasesRepository,
  mail: mailRepository,
  memberBookings: memberBookingsRepository,
  networkPushes: networkPushesRepository,
  notices: noticesRepository,
  outboxFigures: outboxFiguresRepository,
  positions: positionsRepository,
  privacy: privacyRepository,
  erase: eraseRepository,
  roles: rolesRepository,
  roster: rosterRepository,
  rosterStaging: rosterStagingRepository,
  sessions: sessionsRepository,
  soloWarnings: soloWarningsRepository,
  staff: staffRepository,
  staffFigures: staffFiguresRepository,
  students: studentsRepository,
  sweatbox: sweatboxRepository,
  trainingFigures: trainingFiguresRepository,
  tasks: tasksRepository,
  facilities: facilitiesRepository,
  trainingHistory: trainingHistoryRepository,
  trainingLinks: trainingLinksRepository,
  trainingExaminations: trainingExaminationsRepository,
  trainingRecords: trainingRecordsRepository,
  reportTemplates: reportTemplatesRepository,
  trainings: trainingsRepository,
  users: usersRepository,
  votes: votesRepository,
  webhookDeliveries: webhookDeliveriesRepository,
  webhooks: webhooksRepository,
} satisfies Record<string, (db: Executor, dialect: Dialect) => object>;

export type Repositories = { readonly [K in keyof typeof FACTORIES]: ReturnType<(typeof FACTORIES)[K]> };

/**
 * The queries of each repository: what may run outside a Write. Everything else (inserts, updates,
 * row locks, claims, leases) is a change, reached only through `Write.repos`; a method not listed
 * here is a change until it is.
 */
interface Queries {
  activity: 'rows';
  activityNotices: 'activePairs';
  apiKeys: 'findById' | 'findByIdAndByName' | 'validIds' | 'nameExists' | 'list';
  attachments: 'ofTrainings' | 'find' | 'content' | 'targetOf' | 'countOn';
  audit: 'list';
  bookings:
    | 'list'
    | 'viewsByIds'
    | 'countLive'
    | 'findById'
    | 'findPosition'
    | 'findUsers'
    | 'findPositionsByCallsign'
    | 'facilityEndorsementsOf'
    | 'overlapping';
  calendar: 'bookings' | 'bookers' | 'areaNames';
  controllingSessions: 'open' | 'backfillProgress';
  demoPeople: 'list';
  deprecated: 'roleAssignments' | 'facilityHolders' | 'trainingEndorsements' | 'examiners' | 'visiting';
  divisionData: 'hasData' | 'holdsOnlyUsers';
  divisionCpt: 'file';
  divisionRequests: 'nextDue' | 'open' | 'countPending' | 'refusedAbout' | 'fallbackActor';
  divisionSyncs: 'wanted' | 'last';
  endorsements: 'list' | 'find' | 'scopeOf' | 'unended' | 'startingAt' | 'issueFacts' | 'expired';
  events: 'after' | 'seqOf' | 'findById' | 'lastSeq';
  export: 'readDivision' | 'attachmentContent';
  feedback: 'list' | 'find' | 'comments';
  health: 'ping';
  idempotencyKeys: 'find';
  import: never;
  leases: never;
  mail: 'anyDue';
  memberBookings: 'booker' | 'positions' | 'bookings' | 'booking' | 'byIds' | 'calendarSecret' | 'calendarOwner';
  networkPushes: 'pendingWork' | 'open' | 'status';
  notices: 'settingsRows' | 'recipients';
  outboxFigures: 'read';
  positions: 'list' | 'callsigns' | 'findByCallsign' | 'areas' | 'bookingsKeeping';
  privacy: 'memberData';
  erase: never;
  roles: 'staffMember' | 'list';
  roster: never;
  // ANALYZE of the staging table: the planner's statistics, no rows.
  rosterStaging: 'refreshStatistics' | 'count' | 'countAmong' | 'countMembersAndRemoved' | 'leaversAfter' | 'changedAfter';
  sessions: 'find' | 'profileOf';
  soloWarnings: never;
  staff: 'search' | 'names' | 'user';
  staffFigures:
    'monthlyMs' | 'topControllers' | 'activityStatuses' | 'mentors' | 'traineesNow' | 'reportsBy' | 'examinedBy' | 'roles' | 'endorsements';
  students: 'mentoredBy';
  sweatbox: 'list' | 'find' | 'overlapping';
  trainingFigures: 'trainings' | 'trainedFor' | 'examResults';
  tasks: 'find' | 'list' | 'ofMember' | 'ofTraining' | 'pendingFor' | 'training' | 'people' | 'assignees';
  facilities: 'list' | 'find' | 'required';
  trainingHistory: 'publishedReports' | 'examinations' | 'asExaminer';
  trainingLinks: 'byHash';
  trainingExaminations: 'ofTraining' | 'find' | 'overview' | 'examinerRatings';
  trainingRecords: 'reports' | 'report' | 'timeline';
  reportTemplates: 'list' | 'find';
  trainings:
    | 'list'
    | 'find'
    | 'mentorsAmong'
    | 'isExaminer'
    | 'pastWaits'
    | 'interestDue'
    | 'interestExpired'
    | 'applicant'
    | 'positionsByArea'
    | 'latestOf'
    | 'students';
  users: 'listForApi' | 'divisions';
  votes: 'list' | 'find' | 'options' | 'votedIn' | 'voterFacts';
  webhookDeliveries: 'pendingWork';
  webhooks: 'list' | 'find' | 'attempts';
}

// Every repository has its list of queries, and every name listed is one of its methods.
type Checked<T extends { [K in keyof Repositories]: keyof Repositories[K] }> = T;

/** The repositories as services see them: queries only, so a change cannot happen outside a Write. */
export type ReadRepositories = { readonly [K in keyof Repositories]: Pick<Repositories[K], Checked<Queries>[K] & keyof Repositories[K]> };

/** The read-only view over db (the composition root's `repos`; a snapshot's reads). */
export const readRepositories = (db: Executor, dialect: Dialect): ReadRepositories => createRepositories(db, dialect);

/**
 * Every repository over db, each made when first used: every write's transaction gets its own, and
 * making all thirty took about 30 µs of each write, which uses three or four.
 */
export function createRepositories(db: Executor, dialect: Dialect): Repositories {
  const made = new Map<string, object>();
  return new Proxy({} as Repositories, {
    get(_, name) {
      if (typeof name !== 'string' || !Object.hasOwn(FACTORIES, name)) return undefined;
      let repo = made.get(name);
      if (repo === undefined) made.set(name, (repo = FACTORIES[name as keyof typeof FACTORIES](db, dialect)));
      return repo;
    },
  });
}
