import type { Config } from '../config.js';
import type { Db } from '../db/connection.js';
import { Freshness } from '../db/freshness.js';
import { type Clock, systemClock } from '../domain/time.js';
import { ApiKeyService } from '../auth/keys.js';
import { ResponseCache } from '../http/responseCache.js';
import { createRepositories, type Repositories } from '../repositories/index.js';
import type { BookingChangeRecorder } from './booking-changes.js';
import { BookingWrites } from './bookings.js';
import { EventOutbox } from './events/outbox.js';
import { EventStream } from './events/stream.js';
import { NetworkPusher } from './network/pusher.js';
import { NetworkPushRecorder } from './network/recorder.js';
import { UsersList } from './usersList.js';

/** Everything a route or command needs, built once per process from config and database. */
export interface AppServices {
  config: Config;
  db: Db;
  clock: Clock;
  freshness: Freshness;
  repos: Repositories;
  keys: ApiKeyService;
  responses: ResponseCache;
  bookingWrites: BookingWrites;
  usersList: UsersList;
  /** Every booking change passes through these in its transaction (API writes and imports). */
  recorders: readonly BookingChangeRecorder[];
  /** Booking events, written in each change's transaction. */
  outbox: EventOutbox;
  /** GET /api/events: tails the outbox once per process for every connected client. */
  eventStream: EventStream;
  /** Pushes bookings to the network's bookings service; null when sync is not configured. Started by the server only. */
  networkPusher: NetworkPusher | null;
}

export function createServices(config: Config, db: Db, clock: Clock = systemClock): AppServices {
  const freshness = new Freshness(db);
  const repos = createRepositories(db);
  // Events, audit entries and network pushes register here: each is written in the change's own transaction.
  const outbox = new EventOutbox(db.dialect);
  const recorders: BookingChangeRecorder[] = [outbox];
  const eventStream = new EventStream(db, config.eventStreamHeartbeatMs);
  outbox.onCommitted(() => eventStream.wake());
  const networkPusher = config.network
    ? new NetworkPusher({
        db,
        config: config.network,
        division: { division: config.division, subdivisions: config.subdivisions },
        clock,
        freshness,
      })
    : null;
  if (networkPusher) recorders.push(new NetworkPushRecorder(db.dialect, () => networkPusher.wake()));
  return {
    config,
    db,
    clock,
    freshness,
    repos,
    keys: new ApiKeyService(repos.apiKeys, freshness, clock),
    responses: new ResponseCache(freshness),
    bookingWrites: new BookingWrites(db, repos.bookings, freshness, clock, recorders),
    usersList: new UsersList(config, db, repos.users, freshness, clock),
    recorders,
    outbox,
    eventStream,
    networkPusher,
  };
}
