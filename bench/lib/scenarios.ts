// The benchmark's scenarios. Names are part of bench/results.json, which other tools read.
export const USERS_RELATIONS = ['allUsers', 'endorsements', 'roles', 'training', 'name', 'email', 'divisions', 'activeAreas'];
export const USERS_PATH = `/api/users?include=${USERS_RELATIONS.join(',')}`;

export const TARGETS = {
  positionsRatio: 0.8,
  bookingsRatio: 0.7,
  /** The schedule page (GET /) as the bare server sending its bytes. */
  scheduleRatio: 0.8,
  usersP50Ms: 100,
  usersP99Ms: 250,
  createsPerSecond: 2000,
  peakRssMb: 200,
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
