// The benchmark's scenarios. Names are part of bench/results.json, which other tools read.
export const USERS_RELATIONS = ['allUsers', 'endorsements', 'roles', 'training', 'name', 'email', 'divisions', 'activeAreas'];
export const USERS_PATH = `/api/users?include=${USERS_RELATIONS.join(',')}`;

/**
 * Budgets: floors to stay above, not targets to chase (nothing in Sector exists to beat them).
 * Public GETs are compared with a plain Fastify route sending the same bytes, in the same run.
 */
export const TARGETS = {
  /** Sector's rate over the plain Fastify route's, same bytes, same rounds. */
  publicGetOverFastify: 0.8,
  /** positions, the smallest answer: the framework's share of each request is largest there. */
  positionsOverFastify: 0.6,
  usersP50Ms: 100,
  /** Sector's users p99 over the baseline's, both pooled over the same rounds. */
  usersP99OverBaseline: 1.5,
  /** Answers per side behind each users p99. */
  usersMinResponses: 1000,
  /** Users p50 while bookings are created, over users p50 read-only. */
  usersWithWritesOverReadOnly: 1.5,
  /** Bookings created per second while users are read (users with writes). */
  usersWithWritesCreateRate: 50,
  /** Creates per second on SQLite with nothing configured. */
  createsPerSecond: 1500,
  /** Creates per second with webhooks, audit and network sync all configured, over none configured. */
  configuredCreateShare: 0.7,
  /** p95 from an event's commit to its arrival at a local receiver, at 50 creates/s with three subscriptions (contract §10). */
  webhookP95Ms: 1000,
  peakRssMb: 250,
  /** CPU of one poll of the feed (1,500 controllers, 20,000 pilots), worst of the polls. */
  feedPollCpuMs: 300,
  /** Public GET /api/positions p99 while the feed is polled every second, over without polls. */
  p99DuringPollsOverQuiet: 1.5,
  /** roster:sync of 100,000 members into an empty database. */
  rosterSyncSeconds: 60,
  /** Its peak RSS over that of a command loading the same modules and database. */
  rosterPeakRssGrowthMb: 100,
};

/** Targets of `--scale` (bench/scale.ts). */
export const SCALE_TARGETS = {
  /** Uncached users build at 100k users over 10k: no worse than linear (10×) with some slack. */
  usersBuild100kOver10k: 12,
  /** Create p50 and public bookings list p50 with 1M past bookings over 10k. */
  pastBookings1mOver10k: 1.5,
};

export interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  connections: number;
  /** Send the edit key. */
  key: boolean;
  /** The status a working route answers. */
  expect: number;
  /** 'slots' gives every request its own booking slot (see slots.ts). */
  body?: 'slots';
}

export const SCENARIOS: readonly Scenario[] = [
  { name: 'positions', method: 'GET', path: '/api/positions', connections: 10, key: false, expect: 200 },
  { name: 'bookings', method: 'GET', path: '/api/bookings', connections: 10, key: false, expect: 200 },
  { name: 'bookings (key)', method: 'GET', path: '/api/bookings', connections: 10, key: true, expect: 200 },
  { name: 'users', method: 'GET', path: USERS_PATH, connections: 4, key: true, expect: 200 },
  { name: 'schedule', method: 'GET', path: '/', connections: 10, key: false, expect: 200 },
  { name: 'create', method: 'POST', path: '/api/bookings/create', connections: 32, key: true, expect: 201, body: 'slots' },
];
