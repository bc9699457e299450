// Import records (docs/import-format.md) for the divisions tests load, through ctx.load() or as a
// file for the CLI. Each builder fills a record's required fields with plain defaults, so a test
// spells out only the values its assertions read, and every test builds its division alike.

/** The controllers most tests book as. */
export const ADA = 1000001;
export const BO = 1000002;

/** Where the controllers of the test division belong, as the network's roster has it. */
export const SCANDINAVIA = { region: 'EMEA', division: 'EUD', subdivision: 'SCA' } as const;

export interface UserRecord {
  id: number;
  first_name: string;
  last_name: string;
  rating: string;
  email?: string | null;
  region?: string | null;
  division?: string | null;
  subdivision?: string | null;
  atc_active_areas?: Record<string, boolean>;
}

export interface PositionRecord {
  callsign: string;
  name: string;
  frequency: string;
  area?: string | null;
  rating?: string | null;
  required_facility?: string | null;
}

export interface EndorsementRecord {
  user_id: number;
  type: string;
  rating?: string | null;
  areas?: string[] | null;
  positions?: string[] | null;
  valid_from: string;
  valid_to?: string | null;
  revoked?: boolean | null;
  revoked_at?: string | null;
}

export interface RoleRecord {
  user_id: number;
  /** Null: division-wide (Administrator only). */
  area: string | null;
  role: string;
}

export interface TrainingRecord {
  user_id: number;
  area: string;
  type: string;
  status: number;
  created_at: string;
  started_at?: string | null;
  ratings?: string[] | null;
  mentors?: number[];
  /** As the import format gives them (docs/import-format.md). */
  examinations?: Array<Record<string, unknown>>;
}

export interface BookingRecord {
  id?: number;
  user_id: number;
  callsign: string;
  time_start: string;
  time_end: string;
  tag?: number | null;
  source?: string | null;
  network_booking?: string | null;
  deleted?: boolean | null;
}

export interface Division {
  areas: string[];
  users: UserRecord[];
  positions: PositionRecord[];
  endorsements?: EndorsementRecord[];
  roles?: RoleRecord[];
  trainings?: TrainingRecord[];
  bookings?: BookingRecord[];
}

/** Real positions, with the rating each needs. A test that needs another rating says so. */
const POSITIONS = {
  EKCH_TWR: { name: 'Kastrup Tower', frequency: '118.105', area: 'Denmark', rating: 'S2' },
  EKCH_DEL: { name: 'Kastrup Delivery', frequency: '119.905', area: 'Denmark', rating: 'S1' },
  EKCH_GND: { name: 'Kastrup Ground', frequency: '121.905', area: 'Denmark', rating: 'S1' },
  EKCH_APP: { name: 'Copenhagen Approach', frequency: '119.805', area: 'Denmark', rating: 'S3' },
  EKDK_CTR: { name: 'Copenhagen Control', frequency: '136.485', area: 'Denmark', rating: 'C1' },
  EFHK_TWR: { name: 'Helsinki Tower', frequency: '118.600', area: 'Finland', rating: 'S2' },
  ESSA_TWR: { name: 'Arlanda Tower', frequency: '118.500', area: 'Sweden', rating: 'S2' },
  ENGM_TWR: { name: 'Gardermoen Tower', frequency: '118.305', area: 'Norway', rating: 'S1' },
} as const;

export type KnownCallsign = keyof typeof POSITIONS;

export function buildUser(overrides: Partial<UserRecord> = {}): UserRecord {
  return { id: ADA, first_name: 'Ada', last_name: 'Lind', rating: 'C1', division: 'EUD', ...overrides };
}

export function buildPosition(callsign: KnownCallsign, overrides: Partial<PositionRecord> = {}): PositionRecord {
  return { callsign, ...POSITIONS[callsign], ...overrides };
}

/** By default the facility endorsement that EKCH_TWR requires, valid from 2025 on. */
export function buildEndorsement(overrides: Partial<EndorsementRecord> = {}): EndorsementRecord {
  return { user_id: ADA, type: 'facility', rating: 'T1 EKCH TWR', valid_from: '2025-01-01T00:00:00Z', valid_to: null, ...overrides };
}

export function buildRole(overrides: Partial<RoleRecord> = {}): RoleRecord {
  return { user_id: ADA, area: 'Denmark', role: 'Mentor', ...overrides };
}

/** By default a training still in the queue. */
export function buildTraining(overrides: Partial<TrainingRecord> = {}): TrainingRecord {
  return {
    user_id: ADA,
    area: 'Denmark',
    type: 'Standard',
    status: 0,
    created_at: '2025-03-01T10:00:00Z',
    started_at: null,
    ratings: ['S2'],
    ...overrides,
  };
}

/** By default two hours on EKCH_TWR, years after any clock a test pins. */
export function buildBooking(overrides: Partial<BookingRecord> = {}): BookingRecord {
  return { user_id: ADA, callsign: 'EKCH_TWR', time_start: '2030-03-12 10:00:00', time_end: '2030-03-12 12:00:00', ...overrides };
}

/** By default Denmark with Ada and Kastrup Tower: enough to book on. A section given replaces the default one. */
export function buildDivision(overrides: Partial<Division> = {}): Division {
  return { areas: ['Denmark'], users: [buildUser()], positions: [buildPosition('EKCH_TWR')], ...overrides };
}

/** Not callsigns (docs/calendar.md, filters), though most pass a check for control characters and length. */
export const HOSTILE_CALLSIGNS = [
  '🛫',
  'EKCH🛫',
  '\u202eRWT_HCKE',
  'EKCH\u200b_TWR',
  'EKCH TWR',
  'EKCH-TWR',
  'EKCH.TWR',
  'ß',
  'ı*',
  'ＥＫＣＨ',
  "EKCH'--",
  'EKCH%',
  '<b>',
];
