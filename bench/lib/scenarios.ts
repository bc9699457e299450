// The benchmark's scenarios. Names are part of bench/results.json, which other tools read.
export const USERS_RELATIONS = ['allUsers', 'endorsements', 'roles', 'training', 'name', 'email', 'divisions', 'activeAreas'];
export const USERS_PATH = `/api/users?include=${USERS_RELATIONS.join(',')}`;

/** Every target but two absolute floors (users p50, creates per second) is a ratio within one run. */
export const TARGETS = {
  /** Sector's rate over the bare node:http server's, same bytes, same rounds. */
  positionsRatio: 0.85,
  bookingsRatio: 0.9,
  /** The schedule page (GET /) as the bare server sending its bytes. */
  scheduleRatio: 0.8,
  usersP50Ms: 100,
  /** Sector's users p99 over the baseline's, both pooled over the same rounds. */
  usersP99OverBaseline: 1.5,
  /** Answers per side behind each users p99. */
  usersMinResponses: 1000,
  /** Users p50 while bookings are created, over users p50 read-only. */
  usersWithWritesOverReadOnly: 1.5,
  /** Bookings created per second while users are read (users with writes). */
  usersWithWritesCreateRate: 50,
  createsPerSecond: 2000,
  /** Creates per second with events, audit and network sync all configured, over none configured. */
  configuredCreateShare: 0.8,
  peakRssMb: 200,
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
