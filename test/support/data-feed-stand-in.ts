// A stand-in for the network's public data feed (vatsimnetwork/vatsim.dev openapi/data.yaml,
// DataFeed v3: `GET /v3/vatsim-data.json` returning `{general, pilots, controllers, atis, servers,
// prefiles, facilities, ratings, pilot_ratings, military_ratings}`). The test sets the controllers
// and the generation time; the stand-in can return an error, garbage or nothing at all.
import http from 'node:http';
import { listenOnLoopback } from './loopback-server.js';
import { FeedPollService, type FeedPollDeps } from '../../src/features/activity/feed.service.js';

export interface FeedControllerInput {
  cid: number;
  callsign: string;
  /** ISO instant. */
  logon_time: string;
  facility?: number;
  name?: string;
  frequency?: string;
  rating?: number;
}

export type FeedMode = 'up' | 'garbage' | 'timeout' | { status: number };

export interface DataFeedStandIn {
  /** The feed's address, as DATA_FEED_URL takes it. */
  url: string;
  /** What the next responses carry. */
  set(generatedAt: string, controllers: FeedControllerInput[], pilots?: number): void;
  setMode(mode: FeedMode): void;
  /** Requests responded to so far. */
  count(): number;
  /** When each request arrived (ms), in order. */
  times(): number[];
  close(): Promise<void>;
}

const FACILITIES = [
  { id: 0, short: 'OBS', long: 'Observer' },
  { id: 1, short: 'FSS', long: 'Flight Service Station' },
  { id: 2, short: 'DEL', long: 'Clearance Delivery' },
  { id: 3, short: 'GND', long: 'Ground' },
  { id: 4, short: 'TWR', long: 'Tower' },
  { id: 5, short: 'APP', long: 'Approach/Departure' },
  { id: 6, short: 'CTR', long: 'Enroute' },
];

function controller(c: FeedControllerInput, lastUpdated: string) {
  return {
    cid: c.cid,
    name: c.name ?? `Controller ${c.cid}`,
    callsign: c.callsign,
    frequency: c.frequency ?? '118.105',
    facility: c.facility ?? 4,
    rating: c.rating ?? 4,
    server: 'GERMANY',
    visual_range: 50,
    text_atis: ['Online until 22:00z'],
    last_updated: lastUpdated,
    logon_time: c.logon_time,
  };
}

function pilot(i: number, at: string) {
  return {
    cid: 1_200_000 + i,
    name: `Pilot ${i} EKCH`,
    callsign: `SAS${1000 + i}`,
    server: 'GERMANY',
    pilot_rating: 1,
    military_rating: 0,
    latitude: 55.6 + (i % 100) / 100,
    longitude: 12.6 - (i % 50) / 50,
    altitude: 35000 - (i % 300) * 100,
    groundspeed: 450 + (i % 40),
    transponder: String(2000 + (i % 6000)).padStart(4, '0'),
    heading: i % 360,
    qnh_i_hg: 29.92,
    qnh_mb: 1013,
    // A plan for one pilot in ten: keeps a feed of 20,000 pilots near the size of the real one.
    flight_plan:
      i % 10 !== 0
        ? null
        : {
            flight_rules: 'I',
            aircraft: 'B738/M-SDE2E3FGHIRWXY/LB1',
            aircraft_faa: 'B738/L',
            aircraft_short: 'B738',
            departure: 'EKCH',
            arrival: 'ESSA',
            alternate: 'ESGG',
            deptime: '1200',
            enroute_time: '0100',
            fuel_time: '0300',
            remarks: 'PBN/A1B1C1D1O1S1 DOF/261125 REG/OYKAL EET/ESAA0021 OPR/SAS PER/C RMK/TCAS /V/',
            route: 'NEXEN T503 GIMRU DCT MICOS DCT ELTOK',
            revision_id: 1,
            assigned_transponder: '2341',
          },
    logon_time: at,
    last_updated: at,
  };
}

/** A whole feed document, as the network serves it. */
export function feedDocument(generatedAt: string, controllers: FeedControllerInput[], pilots = 0): unknown {
  return {
    general: {
      version: 3,
      reload: 1,
      update: generatedAt.replace(/[-:T]/g, '').slice(0, 14),
      update_timestamp: generatedAt,
      connected_clients: controllers.length + pilots,
      unique_users: controllers.length + pilots,
    },
    pilots: Array.from({ length: pilots }, (_, i) => pilot(i, generatedAt)),
    controllers: controllers.map((c) => controller(c, generatedAt)),
    atis: [],
    servers: [
      {
        ident: 'GERMANY',
        hostname_or_ip: '192.0.2.10',
        location: 'Nuremberg, Germany',
        name: 'GERMANY',
        client_connections_allowed: true,
        is_sweatbox: false,
      },
    ],
    prefiles: [],
    facilities: FACILITIES,
    ratings: [],
    pilot_ratings: [],
    military_ratings: [],
  };
}

export async function startDataFeedStandIn(): Promise<DataFeedStandIn> {
  let body = JSON.stringify(feedDocument('2026-01-01T00:00:00.000000Z', []));
  let mode: FeedMode = 'up';
  let responded = 0;
  const arrivals: number[] = [];
  const held = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    responded++;
    arrivals.push(Date.now());
    if (mode === 'timeout') {
      held.add(res);
      return;
    }
    if (mode === 'garbage') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"general": {"version": 3');
    if (typeof mode === 'object') return void res.writeHead(mode.status, { 'content-type': 'text/plain' }).end('error');
    if (req.url !== '/v3/vatsim-data.json') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  });
  const listening = await listenOnLoopback(server);
  const { port } = listening;
  return {
    url: `http://127.0.0.1:${port}/v3/vatsim-data.json`,
    set: (generatedAt, controllers, pilots = 0) => {
      body = JSON.stringify(feedDocument(generatedAt, controllers, pilots));
    },
    setMode: (m) => {
      mode = m;
    },
    count: () => responded,
    times: () => [...arrivals],
    close: () => {
      for (const res of held) res.destroy();
      return listening.close();
    },
  };
}

/** One poll of the feed, as the feed worker makes it, of what the stand-in shows now. */
export function pollFeed(
  services: Pick<FeedPollDeps, 'repos' | 'writer' | 'clock'>,
  feed: Pick<DataFeedStandIn, 'url'>,
): ReturnType<FeedPollService['poll']> {
  return new FeedPollService({ ...services, feed: { url: feed.url, intervalS: 60 } }).poll();
}
