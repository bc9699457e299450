// The benchmark's scenarios. Names are part of bench/results.json, which other tools read. A new
// request scenario is one entry in SCENARIOS (and a route in bench/reference-server.ts).
export const USERS_RELATIONS = ['allUsers', 'endorsements', 'roles', 'training', 'name', 'email', 'divisions', 'activeAreas'];
export const USERS_PATH = `/api/users?include=${USERS_RELATIONS.join(',')}`;

/** Budgets: floors to stay above, not targets to chase (nothing in Sector exists to beat them). */
export const TARGETS = {
  /** Sector's requests/s over the same-work reference's, same rounds. */
  rpsOverReference: 0.7,
  /** Sector's p99 over the reference's, same rounds. */
  p99OverReference: 2,
  /** Responses per side behind each pooled p99 (users). */
  usersMinResponses: 1000,
  /** p95 from an event's commit to its arrival at a local receiver, at 50 creates/s with three subscriptions (contract §10). */
  webhookP95Ms: 1000,
  /** CPU of one poll of the feed (1,500 controllers, 20,000 pilots), median of the polls. */
  feedPollCpuMs: 300,
  /** roster:sync of 100,000 members into an empty database, and the process's peak RSS. */
  rosterSyncSeconds: 60,
  rosterPeakRssMb: 300,
  /** import:controlcenter of 20,000 users, 100,000 bookings, 30,000 endorsements, 5,000 trainings (contract §19). */
  controlCenterSeconds: 120,
  controlCenterPeakRssMb: 300,
  /** Bookings/s of 100-booking batches over those of single creates, one server, one run (contract §5). */
  batchSpeedup: 5,
};

export interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  connections: number;
  /** Send the edit key. */
  key: boolean;
  /** The status a working route returns. */
  expect: number;
  /** 'slots' gives every request its own booking slot (see slots.ts). */
  body?: 'slots';
  /** Pool latencies over rounds long enough for this many responses per side (few, slow responses). */
  minResponses?: number;
}

export const SCENARIOS: Scenario[] = [
  { name: 'positions', method: 'GET', path: '/api/positions', connections: 10, key: false, expect: 200 },
  { name: 'bookings', method: 'GET', path: '/api/bookings', connections: 10, key: false, expect: 200 },
  { name: 'bookings (key)', method: 'GET', path: '/api/bookings', connections: 10, key: true, expect: 200 },
  { name: 'users', method: 'GET', path: USERS_PATH, connections: 4, key: true, expect: 200, minResponses: TARGETS.usersMinResponses },
  { name: 'create', method: 'POST', path: '/api/bookings/create', connections: 32, key: true, expect: 201, body: 'slots' },
];
