// Every feature, in the order their services are built (a feature's services may use those of the
// features before it) and their routes registered in each scope (the order of the OpenAPI document).
import type { Feature } from './feature.js';
import { activity } from '../features/activity/index.js';
import { apiKeys } from '../features/api-keys/index.js';
import { audit } from '../features/audit/index.js';
import { bookings } from '../features/bookings/index.js';
import { calendar } from '../features/calendar/index.js';
import { divisionApi } from '../features/division-api/index.js';
import { deprecated } from '../features/deprecated/index.js';
import { endorsements } from '../features/endorsements/index.js';
import { events } from '../features/events/index.js';
import { feedback } from '../features/feedback/index.js';
import { home } from '../features/home/index.js';
import { network } from '../features/network/index.js';
import { notices } from '../features/notices/index.js';
import { operations } from '../features/operations/index.js';
import { positions } from '../features/positions/index.js';
import { roles } from '../features/roles/index.js';
import { reports } from '../features/reports/index.js';
import { roster } from '../features/roster/index.js';
import { settings } from '../features/settings/index.js';
import { signIn } from '../features/sign-in/index.js';
import { staff } from '../features/staff/index.js';
import { sweatbox } from '../features/sweatbox/index.js';
import { trainings } from '../features/trainings/index.js';
import { tasks } from '../features/tasks/index.js';
import { transfer } from '../features/transfer/index.js';
import { users } from '../features/users/index.js';
import { votes } from '../features/votes/index.js';
import { webhooks } from '../features/webhooks/index.js';

export const FEATURES = [
  audit,
  apiKeys,
  roles,
  network,
  operations,
  notices,
  positions,
  activity,
  bookings,
  users,
  deprecated,
  divisionApi,
  endorsements,
  tasks,
  trainings,
  calendar,
  events,
  webhooks,
  roster,
  staff,
  sweatbox,
  votes,
  feedback,
  home,
  settings,
  reports,
  signIn,
  transfer,
] as const;

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type ServicesOf<F> = F extends Feature<infer S, never> ? S : never;

/** The services every feature adds, by name. */
export type FeatureServices = UnionToIntersection<ServicesOf<(typeof FEATURES)[number]>>;
