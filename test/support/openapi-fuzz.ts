// Request generators for schema-driven fuzzing: every operation of the app's own OpenAPI
// document becomes an arbitrary of valid, near-valid and hostile requests.
import fc from 'fast-check';
import qs from 'qs';

type JsonSchema = Record<string, unknown>;

export interface OpenApiParameter {
  in: 'query' | 'path' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface OpenApiOperation {
  method: string;
  path: string;
  parameters: OpenApiParameter[];
  /** Media type -> body schema. */
  bodies: Record<string, JsonSchema>;
  bodyRequired: boolean;
  /** Status -> JSON schema of the response body (undefined when the status has no JSON body). */
  responses: Record<string, JsonSchema | undefined>;
  /** Status -> the media types documented for its body (text/calendar and text/html for the calendar routes). */
  mediaTypes: Record<string, string[]>;
}

export function operationsOf(doc: { paths: Record<string, Record<string, Record<string, unknown>>> }): OpenApiOperation[] {
  const ops: OpenApiOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const op = raw as {
        parameters?: OpenApiParameter[];
        requestBody?: { required?: boolean; content?: Record<string, { schema: JsonSchema }> };
        responses?: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
      };
      const bodies: Record<string, JsonSchema> = {};
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) bodies[type] = media.schema;
      const responses: Record<string, JsonSchema | undefined> = {};
      const mediaTypes: Record<string, string[]> = {};
      for (const [status, r] of Object.entries(op.responses ?? {})) {
        responses[status] = r.content?.['application/json']?.schema;
        mediaTypes[status] = Object.keys(r.content ?? {});
      }
      ops.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        bodies,
        bodyRequired: op.requestBody?.required ?? false,
        responses,
        mediaTypes,
      });
    }
  }
  return ops;
}

/** What the generators know about the loaded data, so that "valid" requests can succeed. */
export interface FuzzWorld {
  now: number;
  userIds: number[];
  callsigns: string[];
  bookingIds: number[];
  /** Trainings' ids (the `{id}` of /api/trainings) and the areas' names. */
  trainingIds: number[];
  areas: string[];
  /** Members holding an examiner endorsement for every area (an examination names an examiner of its training's area). */
  examinerIds: number[];
  /** Planned examinations, each with its training (the `{id}` and `{xid}` of an examination's path). */
  examinations: Array<{ id: number; xid: number }>;
  /** Highest booking id that can exist by the end of the run (for near-valid ids). */
  maxBookingId: number;
  /**
   * Ids no `{id}` is ever given: the examiners' endorsements, which a random revoke or shortening
   * must not take away from the examinations the fuzz expects to succeed.
   */
  reservedIds: number[];
  /** Reports with their training (the `{id}` and `{rid}` of /api/trainings/{id}/reports/{rid}, contract §20). */
  reports?: Array<{ training: number; id: number }>;
  relations: string[];
  /** Tasks (contract §21): their ids, and staff who may send and receive a custom task. */
  tasks?: { ids: number[]; staff: number[] };
  /** Reports and examinations (with their training) files may be attached to, and attachments' ids. */
  attachments: { records: Array<{ training: number; kind: 'reports' | 'examinations'; id: number }>; ids: number[] };
  tokens: {
    read: string;
    edit: string;
    editOlder: string;
    readCompat: string;
    revoked: string;
    expired: string;
  };
}

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** Which token (if any) the request carries: decides what a 2xx may look like. */
  auth: keyof FuzzWorld['tokens'] | 'none' | 'bogus';
  /** False when the method was swapped: the documented responses do not apply. */
  documented: boolean;
}

// ---------------------------------------------------------------------------------------------
// Values

const DAY = 86_400_000;
const pad = (n: number) => String(n).padStart(2, '0');

const hostileStrings = [
  '',
  ' ',
  '\t\n',
  "' OR '1'='1",
  '1; DROP TABLE bookings;--',
  "%' UNION SELECT secret_hash FROM api_keys --",
  '" OR ""="',
  '`rm -rf /`',
  '$(id)',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2f',
  '/',
  '//',
  '\\',
  '\u0000',
  'a\u0000b',
  '%00',
  '?',
  '#',
  '&',
  '=',
  '[]',
  ']]',
  '{}',
  '{"$gt": ""}',
  '${jndi:ldap://example.invalid/a}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'NaN',
  'Infinity',
  '-Infinity',
  'null',
  'undefined',
  'true',
  '0x10',
  '1e309',
  '-1',
  '0',
  '00',
  '1.5',
  '1_000',
  '9'.repeat(40),
  '\u202e\u0635\u0648\u0631\u0629', // right-to-left override + Arabic
  '\u200b\u200d\ufeff',
  '\ud83d\ude80\ud83d\udc69\u200d\ud83d\udcbb',
  '\ud800', // lone surrogate
  'ＥＫＣＨ＿ＴＷＲ', // full-width look-alike
  'ekch_twr',
  'EKCH_TWR ',
  'x'.repeat(5000),
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...hostileStrings) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

const hugeNumbers = [
  0,
  -0,
  -1,
  1.5,
  -2.5,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  Number.MIN_SAFE_INTEGER,
  2 ** 31,
  2 ** 63,
  9_999_999_999,
  10_000_000_000,
  Number.MIN_VALUE,
];

/** Wrong types and edge values for any field. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileString },
  { weight: 3, arbitrary: fc.constantFrom(...hugeNumbers) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(fc.oneof(fc.integer(), hostileString), { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, fc.oneof(fc.integer(), hostileString), { maxKeys: 3 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(JSON.parse('{"__proto__": {"admin": true}}'), { $gt: 0 }, [[[[[]]]]], {
      constructor: { prototype: { x: 1 } },
    }),
  },
);

function dmy(ms: number, leadingZeros: boolean): string {
  const d = new Date(ms);
  const day = d.getUTCDate();
  const month = d.getUTCMonth() + 1;
  return leadingZeros ? `${pad(day)}/${pad(month)}/${d.getUTCFullYear()}` : `${day}/${month}/${d.getUTCFullYear()}`;
}

const clock = (minutes: number, leadingZero: boolean) =>
  `${leadingZero ? pad(Math.floor(minutes / 60)) : Math.floor(minutes / 60)}:${pad(minutes % 60)}`;

/** Field-name hints: values a real client would send, drawn from the loaded data. */
function validByName(name: string, world: FuzzWorld): fc.Arbitrary<unknown> | undefined {
  const quarter = fc.integer({ min: 0, max: 95 }).map((q) => q * 15);
  switch (name) {
    case 'cid':
      return fc.oneof(fc.constantFrom(...world.userIds), fc.constantFrom(...world.userIds).map(String));
    case 'user_id':
      return fc.constantFrom(...world.userIds);
    case 'position':
    case 'callsign':
      return fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...world.callsigns) },
        { weight: 1, arbitrary: fc.constantFrom(...world.callsigns).map((c) => c.toLowerCase()) },
      );
    case 'date':
      return fc.oneof(
        {
          weight: 12,
          arbitrary: fc.tuple(fc.integer({ min: -2, max: 40 }), fc.boolean()).map(([days, zeros]) => dmy(world.now + days * DAY, zeros)),
        },
        // Real dates at the edges of the calendar and of the Y-m-d H:i:s format.
        { weight: 1, arbitrary: fc.constantFrom('31/12/9999', '30/12/9999', '29/02/2028', '1/1/2100', '31/12/2026', '28/2/2027') },
      );
    case 'start_at':
    case 'end_at':
      return fc.tuple(quarter, fc.boolean()).map(([m, zero]) => clock(m, zero));
    case 'tag':
      return fc.constantFrom(1, 2, 3, '1', '2', '3', null, '');
    case 'source':
      return fc.constantFrom('CC', 'cc', 'DISCORD', 'website-1', 'VATSIM_SYNC');
    case 'id':
      return fc
        .oneof(
          { weight: 4, arbitrary: fc.constantFrom(...world.bookingIds) },
          { weight: 4, arbitrary: fc.constantFrom(...world.trainingIds) },
          { weight: 1, arbitrary: fc.integer({ min: 1, max: world.maxBookingId }) },
        )
        .filter((id) => !world.reservedIds.includes(id));
    case 'new_callsign':
      return fc.oneof(
        { weight: 3, arbitrary: fc.stringMatching(/^EK[A-Z]{2}_(TWR|APP|GND|CTR)$/) },
        { weight: 1, arbitrary: fc.constantFrom(...world.callsigns) },
      );
    // Tasks (§21): a custom task between two of the division's Moderators or Administrators.
    case 'task_id':
      return fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...(world.tasks?.ids ?? [1])) },
        { weight: 1, arbitrary: fc.constantFrom(...world.bookingIds) },
      );
    case 'task_staff':
      return fc.constantFrom(...(world.tasks?.staff ?? world.userIds));
    case 'task_type':
      return fc.constantFrom('custom', 'custom', 'custom', 'theory_exam');
    case 'task_status':
      return fc.constantFrom('completed', 'declined', 'withdrawn');
    case 'task_message':
      return fc.constantFrom('Please give access to the S2 theory exam.', 'Thanks');
    case 'task_absent':
      return fc.constant(undefined);
    case 'attachment_id':
      return fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...world.attachments.ids) },
        { weight: 1, arbitrary: fc.constantFrom(...world.bookingIds) },
      );
    // A training's {id}: mostly a training's, sometimes one that is not (a booking's).
    case 'training_id':
      return fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...world.trainingIds) },
        { weight: 1, arbitrary: fc.constantFrom(...world.bookingIds) },
      );
    // Staff administration's fields (contract §17, §18): values that pass its rules.
    case 'area':
      return fc.constantFrom(...world.areas);
    case 'rating':
      return fc.constantFrom('S1', 'S2', 'S3', 'C1');
    case 'frequency':
      return fc.constantFrom('118.105', '121.500', '136.485');
    case 'name':
      return fc.constantFrom('Kastrup Tower', 'Copenhagen Control');
    case 'type':
      return fc.constantFrom('Standard', 'Fast-track', 'visiting', 'examiner');
    case 'status':
      return fc.constantFrom(1, 2, 3, '2');
    case 'mentors':
      return fc.constant([]);
    // A training names what it trains for: one rating (some are the member's next, some are not).
    case 'ratings':
      return fc.constantFrom('S1', 'S2', 'S3', 'C1').map((r) => [r]);
    // Training records and endorsements (§17, §18): dates, results and the people and places named.
    case 'report_date':
    case 'examination_date':
      return fc.integer({ min: -30, max: 0 }).map((days) => new Date(world.now + days * DAY).toISOString().slice(0, 10));
    case 'content':
    case 'improve':
      return fc.constantFrom('Smooth handoffs; good phraseology.', 'Work on sequencing.');
    case 'result':
      return fc.constantFrom('PASSED', 'FAILED', 'INCOMPLETE', 'POSTPONED');
    case 'examiner_id':
      return fc.constantFrom(...world.examinerIds);
    case 'examiners':
      return fc.constantFrom(...world.examinerIds).map((cid) => [cid]);
    case 'start':
      return fc.oneof(
        fc.constant(null),
        quarter.map((m) => clock(m, false)),
      );
    case 'areas':
      return fc.subarray(world.areas, { minLength: 1, maxLength: 2 });
    case 'positions':
      return fc.subarray(world.callsigns, { minLength: 0, maxLength: 2 });
    case 'valid_from':
    case 'valid_to':
      return fc.integer({ min: -10, max: 60 }).map((days) => new Date(world.now + days * DAY).toISOString());
    case 'issued_type':
      return fc.constantFrom('visiting', 'examiner');
    case 'no_positions':
      return fc.constant([]);
    // After every valid_from above, and ahead of the clock.
    case 'later_valid_to':
      return fc.integer({ min: 61, max: 120 }).map((days) => new Date(world.now + days * DAY).toISOString());
    case 'closed_reason':
      return fc.constantFrom('Left the division', 'Inactive');
    case 'include':
      return fc.subarray(world.relations, { minLength: 0, maxLength: 5 });
    case 'onlyAtcActive':
      return fc.constantFrom('true', 'false', '1', '0');
    case 'from':
    case 'to':
      return fc.tuple(fc.integer({ min: -10, max: 40 }), fc.integer({ min: 0, max: 95 }), fc.boolean()).map(([days, q, dateOnly]) => {
        const iso = new Date(world.now + days * DAY + q * 15 * 60_000).toISOString();
        return dateOnly ? iso.slice(0, 10) : `${iso.slice(0, 19)}Z`;
      });
    case 'limit':
      return fc.integer({ min: 1, max: 50 });
    case 'cursor':
      return fc
        .tuple(fc.integer({ min: world.now - 10 * DAY, max: world.now + 40 * DAY }), fc.integer({ min: 1, max: world.maxBookingId }))
        .map(([t, id]) => Buffer.from(JSON.stringify([t, id])).toString('base64url'));
    case 'api-variant':
      return fc.constantFrom('newer', 'older');
    // A batch: a few creates, each meant to be valid.
    case 'bookings':
      return fc.array(
        fc.record(Object.fromEntries(['cid', 'date', 'start_at', 'end_at', 'position', 'tag'].map((n) => [n, validByName(n, world)!])), {
          requiredKeys: ['cid', 'date', 'start_at', 'end_at', 'position'],
        }),
        { minLength: 1, maxLength: 4 },
      );
    // Mostly new keys; a few shared ones, so that repeats (same or another body) are sent too.
    case 'idempotency-key':
      return fc.oneof({ weight: 3, arbitrary: fc.uuid() }, { weight: 1, arbitrary: fc.constantFrom('fuzz-1', 'fuzz-2') });
    default:
      return undefined;
  }
}

/** Mistakes a real client makes: right idea, wrong detail. */
function nearValidByName(name: string, world: FuzzWorld): fc.Arbitrary<unknown> | undefined {
  switch (name) {
    case 'cid':
      return fc.constantFrom(
        0,
        -1,
        1.5,
        '0',
        '00',
        ' 1000001',
        '1e6',
        world.userIds[0]! + 0.5,
        `${world.userIds[0]}x`,
        99_999_999,
        10_000_000_000,
        '12345678901',
        true,
        [world.userIds[0]],
      );
    case 'position':
    case 'callsign':
      return fc.constantFrom('XXXX_TWR', 'EKCH-TWR', `${world.callsigns[0]}_`, ` ${world.callsigns[0]} `, 'A'.repeat(33), '', '%', '_');
    case 'date':
      return fc.constantFrom(
        '31/02/2026',
        '29/02/2026',
        '29/02/2028',
        '1/13/2026',
        '00/01/2026',
        '32/1/2026',
        '2026-03-12',
        '12-03-2026',
        '12/03/26',
        '12/3/2026 ',
        '1/1/0000',
        '31/12/9999',
        '1/1/1970',
        '12.03.2026',
        '',
        12032026,
      );
    case 'start_at':
    case 'end_at':
      return fc.constantFrom(
        '24:00',
        '23:60',
        '9:5',
        '9',
        '0900',
        '09:00:00',
        '-1:00',
        '12:00 ',
        ' 12:00',
        '7:30am',
        '23:59',
        '00:00',
        '',
        930,
        '１２:００',
      );
    case 'tag':
      return fc.constantFrom(0, 4, '0', '4', '12', 1.5, 'training', true, -1);
    case 'source':
      return fc.constantFrom('', 'x'.repeat(17), 'C C', 'cc!', 'é');
    case 'id':
      return fc.constantFrom(
        0,
        -1,
        '01',
        '1e3',
        '1.0',
        ' 1',
        Number.MAX_SAFE_INTEGER,
        Number.MAX_SAFE_INTEGER + 1,
        '9'.repeat(30),
        world.maxBookingId + 1000,
      );
    case 'include':
      return fc.oneof(
        fc.constantFrom(
          ['ALLUSERS'],
          ['allusers'],
          ['allUsers '],
          ['allUsers,name'],
          ['email', 'email'],
          ['activeAreas'],
          ['training', ''],
          ['all Users'],
          ['*'],
        ),
        fc.array(fc.constantFrom(...world.relations), { minLength: 20, maxLength: 60 }),
      );
    case 'onlyAtcActive':
      return fc.constantFrom('TRUE', 'yes', '2', '', 'on', ['true', 'false']);
    case 'from':
    case 'to':
      return fc.constantFrom(
        '2026-02-30',
        '2026-13-01',
        '2026-03-10T25:00:00Z',
        '2026-03-10T10:00:00+25:00',
        '10/03/2026',
        '2026-03-10T10:00:00.123456789Z',
        '2026-03-10 10:00',
        '0000-01-01',
        '9999-12-31T23:59:59Z',
        '+275760-09-13',
        '',
      );
    case 'limit':
      return fc.constantFrom(0, -1, 1001, 1000, '1.5', 'ten', 1e20);
    case 'cursor':
      return fc.constantFrom(
        '',
        'abc',
        'W10',
        Buffer.from('[1]').toString('base64url'),
        Buffer.from('[1e400,1]').toString('base64url'),
        Buffer.from('{"a":1}').toString('base64url'),
        'a'.repeat(201),
        '%%%',
      );
    case 'idempotency-key':
      return fc.constantFrom('', ' ', 'two words', 'x'.repeat(256));
    case 'api-variant':
      return fc.constantFrom('NEWER', 'newest', '', ' older', 'older, newer');
    default:
      return undefined;
  }
}

/** A value that satisfies a (simple) JSON schema. */
export function fromSchema(schema: JsonSchema): fc.Arbitrary<unknown> {
  const any = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (any) return fc.oneof(...any.map(fromSchema));
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  switch (schema.type) {
    case 'integer':
      return fc.integer({
        min: Math.max((schema.minimum as number | undefined) ?? -1e6, -1e9),
        max: Math.min((schema.maximum as number | undefined) ?? 1e6, 1e9),
      });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'string':
      if (typeof schema.pattern === 'string') {
        try {
          return fc.stringMatching(new RegExp(schema.pattern));
        } catch {
          // a pattern fast-check cannot generate from (lookarounds): any short string
        }
      }
      return fc.string({ maxLength: Math.min((schema.maxLength as number | undefined) ?? 20, 20) });
    case 'array':
      return fc.array(fromSchema((schema.items as JsonSchema | undefined) ?? {}), {
        maxLength: Math.min((schema.maxItems as number | undefined) ?? 5, 5),
      });
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const shape = Object.fromEntries(Object.entries(props).map(([k, s]) => [k, fromSchema(s)]));
      return fc.record(shape, { requiredKeys: (schema.required as string[] | undefined) ?? [] });
    }
    default:
      return fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean(), fc.constant(null));
  }
}

/** One field's value: mostly what a client means to send, sometimes a mistake, sometimes an attack. */
function fieldValue(name: string, schema: JsonSchema, world: FuzzWorld): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: validByName(name, world) ?? fromSchema(schema) },
    { weight: 2, arbitrary: nearValidByName(name, world) ?? fromSchema(schema) },
    { weight: 2, arbitrary: hostileValue },
  );
}

// ---------------------------------------------------------------------------------------------
// Encoding

/** encodeURIComponent that survives lone surrogates (they become U+FFFD, as a browser would send). */
export function percentEncode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
}

const scalar = (v: unknown): string =>
  typeof v === 'string'
    ? v
    : v === null || v === undefined
      ? ''
      : typeof v === 'object'
        ? JSON.stringify(v)
        : String(v as number | boolean | bigint);

/** Query-string pairs for one parameter, in one of the notations clients use. */
const arrayNotations = ['brackets', 'indices', 'repeat', 'comma', 'nested'] as const;
type ArrayNotation = (typeof arrayNotations)[number];

function queryPairs(name: string, value: unknown, notation: ArrayNotation, rawBrackets: boolean): string[] {
  const key = (suffix: string) => (rawBrackets ? `${name}${suffix}` : percentEncode(`${name}${suffix}`));
  if (Array.isArray(value)) {
    const items = value.map(scalar);
    switch (notation) {
      case 'brackets':
        return items.map((v) => `${key('[]')}=${percentEncode(v)}`);
      case 'indices':
        return items.map((v, i) => `${key(`[${i}]`)}=${percentEncode(v)}`);
      case 'repeat':
        return items.map((v) => `${key('')}=${percentEncode(v)}`);
      case 'comma':
        return [`${key('')}=${items.map(percentEncode).join(',')}`];
      case 'nested':
        return items.map((v, i) => `${key(`[${i}][x][]`)}=${percentEncode(v)}`);
    }
  }
  if (value !== null && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).map(([k, v]) => `${key(`[${k}]`)}=${percentEncode(scalar(v))}`);
  }
  return [`${key('')}=${percentEncode(scalar(value))}`];
}

const querySuffixes = [
  '&',
  '&&&',
  '=',
  '=&=',
  '%',
  '%ZZ',
  '%E0%A4%A',
  '%C0%AF',
  '[',
  ']]=1',
  'a[b][c][d][e][f][g]=1',
  '__proto__[admin]=1',
  'constructor[prototype][admin]=1',
  'include[100000]=allUsers',
  'include[][]=allUsers',
  'include[a][b]=c',
  'include[]=allUsers&include[0]=name',
  'include=allUsers&include[]=name&include[1]=email',
  'include=',
  'include=,,,',
  'onlyAtcActive=true&onlyAtcActive=false',
  'limit=1&limit=2',
  'cid[]=1',
  'id=1',
  ';x=1',
  '+',
  '%2B%20',
  `include=${Array.from({ length: 400 }, () => 'name').join(',')}`,
  Array.from({ length: 300 }, (_, i) => `p${i}=${i}`).join('&'),
  Array.from({ length: 200 }, (_, i) => `include[${i}]=name`).join('&'),
  `x=${'y'.repeat(8000)}`,
];

function queryString(params: OpenApiParameter[], world: FuzzWorld): fc.Arbitrary<string> {
  const perParam = params.map((p) =>
    fc
      .tuple(
        fc.integer({ min: 0, max: 9 }),
        fieldValue(p.name, p.schema, world),
        fc.constantFrom(...arrayNotations),
        fc.boolean(),
        fc.boolean(),
      )
      .map(([presence, value, notation, rawBrackets, twice]) => {
        if (presence < 4) return [];
        const pairs = queryPairs(p.name, value, notation, rawBrackets);
        // Duplicated parameter: the same name again with another value.
        return twice && presence === 9 ? [...pairs, ...queryPairs(p.name, 'again', 'repeat', rawBrackets)] : pairs;
      }),
  );
  const extras = fc.oneof(
    { weight: 6, arbitrary: fc.constant<string[]>([]) },
    { weight: 2, arbitrary: fc.constantFrom(...querySuffixes).map((s) => [s]) },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.tuple(hostileString, hostileString), { maxLength: 3 })
        .map((kv) => kv.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`)),
    },
  );
  return fc.tuple(fc.tuple(...perParam), extras, fc.boolean()).map(([pairs, extra, shuffle]) => {
    const all = [...pairs.flat(), ...extra];
    if (shuffle) all.reverse();
    return all.length === 0 ? '' : `?${all.join('&')}`;
  });
}

function pathValue(name: string, schema: JsonSchema, world: FuzzWorld): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 8, arbitrary: fieldValue(name, schema, world).map((v) => percentEncode(scalar(v))) },
    // Raw (unencoded) tricks in the path itself.
    { weight: 1, arbitrary: fc.constantFrom('..', '.', '%2F', '%2e%2e', '1%00', '1;x=1', '1/', '1//2', '%', '%ZZ', '') },
  );
}

// ---------------------------------------------------------------------------------------------
// Headers

function authorization(world: FuzzWorld, write: boolean): fc.Arbitrary<{ header?: string; auth: FuzzRequest['auth'] }> {
  const t = world.tokens;
  const [prefix, id] = t.edit.split('_') as [string, string, string];
  const bogus = [
    'Bearer',
    'Bearer ',
    'Bearer  ',
    `Basic ${Buffer.from('admin:admin').toString('base64')}`,
    `Token ${t.edit}`,
    t.edit,
    `Bearer ${t.edit}x`,
    `Bearer ${t.edit.slice(0, -1)}`,
    `Bearer ${t.edit.toUpperCase()}`,
    `Bearer ${prefix}_${id}_${'A'.repeat(43)}`,
    `Bearer ${prefix}_0000000000000000_${t.edit.slice(-43)}`,
    `Bearer ${t.edit} ${t.read}`,
    `Bearer ${t.edit},Bearer ${t.read}`,
    `Bearer ${'x'.repeat(4000)}`,
    'Bearer sector_',
    "Bearer ' OR 1=1 --",
    'Bearer ../../etc/passwd',
    'Bearer %00',
    'Bearer null',
    'Bearer undefined',
    `Bearer ${t.revoked}`,
    `Bearer ${t.expired}`,
  ];
  // Most requests carry a key that gets them past authentication, so the rest of the route is exercised.
  const usable = write
    ? (['edit', 'edit', 'edit', 'editOlder', 'read'] as const)
    : (['read', 'read', 'edit', 'editOlder', 'readCompat'] as const);
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant({ auth: 'none' as const }) },
    { weight: 7, arbitrary: fc.constantFrom(...usable).map((k) => ({ header: `Bearer ${t[k]}`, auth: k })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(`bearer ${t.edit}`, `BEARER   ${t.edit}  `).map((header) => ({ header, auth: 'edit' as const })),
    },
    { weight: 2, arbitrary: fc.constantFrom(...bogus).map((header) => ({ header, auth: 'bogus' as const })) },
    { weight: 1, arbitrary: hostileString.map((s) => ({ header: `Bearer ${s.replace(/[^\x20-\x7e]/g, '')}`, auth: 'bogus' as const })) },
  );
}

const contentTypes = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=UTF-8',
  'text/plain',
  'text/xml',
  'multipart/form-data; boundary=xyz',
  'application/octet-stream',
  'application/json; charset=latin1',
  'application/vnd.api+json',
  'application/json, text/plain',
  '',
  ';',
];

// ---------------------------------------------------------------------------------------------
// Bodies

interface Body {
  contentType?: string;
  payload?: string;
}

/** JSON or form encoding of an object, as real clients produce them. */
function encodeBody(obj: Record<string, unknown>, form: boolean, charset: boolean): Body {
  if (!form) return { contentType: charset ? 'application/json; charset=utf-8' : 'application/json', payload: JSON.stringify(obj) };
  const safe = Object.fromEntries(
    Object.entries(obj).map(([k, v]) => [k, typeof v === 'string' ? v.replace(/[\ud800-\udfff]/g, '\ufffd') : v]),
  );
  return { contentType: 'application/x-www-form-urlencoded', payload: qs.stringify(safe, { encodeValuesOnly: charset }) };
}

function rawBodies(world: FuzzWorld): string[] {
  const cid = world.userIds[0]!;
  const pos = world.callsigns[0]!;
  return [
    `{"cid": ${cid}, "cid": "x", "date": "12/03/2026", "start_at": "10:00", "end_at": "11:00", "position": "${pos}"}`,
    `{"cid": ${cid}, "date": "12/03/2026", "date": "13/03/2026", "start_at": "10:00", "end_at": "11:00", "position": "${pos}", "position": null}`,
    '{"__proto__": {"admin": true}, "cid": 1}',
    '{"constructor": {"prototype": {"admin": true}}}',
    '{"cid": 1,',
    '{',
    '}',
    '',
    'null',
    '[]',
    '[{"cid": 1}]',
    '1',
    '"text"',
    'true',
    '{"cid": 1e400}',
    '{"cid": -0}',
    '{"cid": 1.0}',
    '{"tag": 1.0}',
    '\ufeff{"cid": 1}',
    '{"cid": "\\u0000"}',
    '{"position": "\\ud800"}',
    `{"position": "${'x'.repeat(60_000)}"}`,
    `{"position": "${'x'.repeat(70_000)}"}`,
    '['.repeat(20_000) + ']'.repeat(20_000),
    '{"a":'.repeat(5000) + '1' + '}'.repeat(5000),
    `cid=${cid}&cid=${cid}&date=12/03/2026&start_at=10:00&end_at=11:00&position=${pos}`,
    'cid[]=1&date[a]=b',
    'cid[a][b][c][d]=1',
    '__proto__[admin]=1&cid=1',
    'constructor[prototype][admin]=1',
    '%',
    '&&&==',
    Array.from({ length: 200 }, (_, i) => `f${i}=${i}`).join('&'),
    `cid=${Array.from({ length: 100 }, () => '1').join('&cid=')}`,
  ];
}

const TASK_HINTS: Record<string, string> = {
  type: 'task_type',
  status: 'task_status',
  creator_id: 'task_staff',
  assignee_id: 'task_staff',
  actor_id: 'task_staff',
  subject_user_id: 'user_id',
  message: 'task_message',
  closed_message: 'task_message',
  training_id: 'task_absent',
  rating: 'task_absent',
};

const ISSUE_HINTS: Record<string, string> = { type: 'issued_type', positions: 'no_positions', valid_to: 'later_valid_to' };

/** An upload as a browser sends it (a small text file, `hidden` or not), or a broken one. */
function multipartBody(): fc.Arbitrary<Body> {
  const boundary = 'fuzzBoundary';
  const part = (name: string, value: string, filename?: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"\r\nContent-Type: text/plain`}\r\n\r\n${value}\r\n`;
  return fc
    .tuple(
      fc.option(fc.constantFrom('true', 'false', 'on', '', 'maybe'), { freq: 2 }),
      fc.constantFrom('notes.txt', 'scan.pdf', '', '../../etc/passwd', 'ø.txt'),
      fc.constantFrom('A note', '%PDF-1.4 x', 'a\u0000b', ''),
      fc.boolean(),
    )
    .map(([hidden, filename, content, complete]) => ({
      contentType: `multipart/form-data; boundary=${boundary}`,
      payload: `${hidden === null ? '' : part('hidden', hidden)}${part('file', content, filename)}${complete ? `--${boundary}--\r\n` : ''}`,
    }));
}

function bodyArbitrary(op: OpenApiOperation, world: FuzzWorld): fc.Arbitrary<Body> {
  if (op.bodies['multipart/form-data'])
    return fc.oneof(
      { weight: 8, arbitrary: multipartBody() },
      { weight: 1, arbitrary: fc.constant<Body>({}) },
      {
        weight: 1,
        arbitrary: fc.record({ contentType: fc.constantFrom(...contentTypes), payload: fc.constantFrom('{"a":1}', 'a=1', '') }),
      },
    );
  const schema = op.bodies['application/json'] ?? Object.values(op.bodies)[0];
  if (!schema) {
    // Operations without a body still get the occasional unexpected one.
    return fc.oneof(
      { weight: 12, arbitrary: fc.constant<Body>({}) },
      {
        weight: 1,
        arbitrary: fc.record({
          contentType: fc.constantFrom(...contentTypes),
          payload: fc.constantFrom('{"a":1}', 'a=1', '', 'x'.repeat(70_000)),
        }),
      },
    );
  }
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const names = Object.keys(props);
  // A new position's callsign is one not taken yet; everywhere else a callsign names a position.
  const hint = (n: string) => {
    if (n === 'callsign' && op.method === 'POST' && op.path === '/api/positions') return 'new_callsign';
    // An endorsement issued with fields chosen one by one rarely passes its type's rules: a visiting
    // or examiner endorsement (areas, a rating, no positions) with an end after any start.
    if (op.method === 'POST' && op.path === '/api/endorsements') return ISSUE_HINTS[n] ?? n;
    if (op.path.startsWith('/api/tasks')) return TASK_HINTS[n] ?? n;
    return n;
  };

  // Every field present and meant to be valid: the requests that reach the business rules.
  const coherent = fc.record(Object.fromEntries(names.map((n) => [n, validByName(hint(n), world) ?? fromSchema(props[n]!)])), {
    requiredKeys: [...required],
  });
  // Each field independently valid, off by a detail, hostile, or missing; plus stray fields.
  const mixed = fc
    .tuple(
      fc.record(Object.fromEntries(names.map((n) => [n, fieldValue(hint(n), props[n]!, world)])), { requiredKeys: [] }),
      fc.dictionary(
        fc.oneof(hostileString, fc.constantFrom('id', 'deleted', 'user_id', 'source', 'position_id', 'created_at', '__proto__')),
        hostileValue,
        { maxKeys: 2 },
      ),
      fc.boolean(),
    )
    .map(([fields, extra, addExtra]) => (addExtra ? { ...fields, ...extra } : fields));

  const encoded = fc
    .tuple(fc.oneof({ weight: 3, arbitrary: coherent }, { weight: 5, arbitrary: mixed }), fc.integer({ min: 0, max: 9 }), fc.boolean())
    .map(([obj, enc, charset]) => encodeBody(obj as Record<string, unknown>, enc >= 6, charset));

  const raw = fc.record({
    payload: fc.constantFrom(...rawBodies(world)),
    contentType: fc.constantFrom('application/json', 'application/x-www-form-urlencoded'),
  });

  const wrongType = fc.tuple(encoded, fc.constantFrom(...contentTypes)).map(([b, contentType]) => ({ ...b, contentType }));

  return fc.oneof(
    { weight: 10, arbitrary: encoded },
    { weight: 3, arbitrary: raw },
    { weight: 1, arbitrary: wrongType },
    { weight: 1, arbitrary: fc.constant<Body>({}) },
    { weight: 1, arbitrary: fc.constant<Body>({ contentType: 'application/json' }) },
  );
}

// ---------------------------------------------------------------------------------------------
// Requests

const otherMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export function requestArbitrary(op: OpenApiOperation, world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const headerParams = op.parameters.filter((p) => p.in === 'header');
  // Api-Variant is understood by several routes even where it is not documented.
  if (!headerParams.some((p) => p.name.toLowerCase() === 'api-variant'))
    headerParams.push({ in: 'header', name: 'api-variant', schema: { type: 'string' } });

  const hint = (name: string) =>
    name === 'id' && op.path.startsWith('/api/trainings/')
      ? 'training_id'
      : name === 'id' && op.path.startsWith('/api/attachments/')
        ? 'attachment_id'
        : name === 'id' && op.path.startsWith('/api/tasks/')
          ? 'task_id'
          : name;
  const anyPath = fc.tuple(...pathParams.map((p) => pathValue(hint(p.name), p.schema, world))).map((values) => {
    let url = op.path;
    pathParams.forEach((p, i) => (url = url.replace(`{${p.name}}`, values[i]!)));
    return url;
  });
  // A record's files: mostly a report or an examination of that very training.
  const kind = !op.path.endsWith('/attachments')
    ? null
    : op.path.includes('/reports/{rid}/')
      ? 'reports'
      : op.path.includes('/examinations/{xid}/')
        ? 'examinations'
        : null;
  const records = world.attachments.records.filter((r) => r.kind === kind);
  // A report's path names its training: mostly a real pair, sometimes any two ids.
  const reports = op.path === '/api/trainings/{id}/reports/{rid}' ? (world.reports ?? []) : [];
  const path =
    kind !== null && records.length > 0
      ? fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...records).map((r) => `/api/trainings/${r.training}/${kind}/${r.id}/attachments`) },
          { weight: 1, arbitrary: anyPath },
        )
      : // An examination's path names it and its training together: mostly a pair that exists.
        op.path.includes('{xid}')
        ? fc.oneof(
            { weight: 3, arbitrary: anyPath },
            {
              weight: 4,
              arbitrary: fc
                .constantFrom(...world.examinations)
                .map((x) => op.path.replace('{id}', String(x.id)).replace('{xid}', String(x.xid))),
            },
          )
        : reports.length === 0
          ? anyPath
          : fc.oneof(
              { weight: 3, arbitrary: fc.constantFrom(...reports).map((r) => `/api/trainings/${r.training}/reports/${r.id}`) },
              { weight: 1, arbitrary: anyPath },
            );

  const headers = fc
    .tuple(
      ...headerParams.map((p) => fc.option(fieldValue(p.name, p.schema, world).map(scalar), { freq: 3 })),
      fc.option(fc.constantFrom('*', '"abc"', 'W/"x"', '"', ''), { freq: 8 }),
      fc.option(fc.constantFrom('https://evil.example', 'null', 'http://127.0.0.1:8080'), { freq: 6 }),
      fc.option(fc.constantFrom('1.2.3.4', 'unknown, ::1', '999.999.999.999', "'; DROP TABLE x"), { freq: 8 }),
      fc.option(fc.constantFrom('text/html', 'application/xml', '*/*', 'application/json;q=0'), { freq: 8 }),
    )
    .map((values) => {
      const out: Record<string, string> = {};
      headerParams.forEach((p, i) => {
        const v = values[i] as string | null;
        // Header values are Latin-1 on the wire; anything else cannot be sent at all.
        if (v !== null) out[p.name] = v.replace(/[^\x20-\x7e]/g, '?');
      });
      const [inm, origin, xff, accept] = values.slice(headerParams.length);
      if (inm) out['if-none-match'] = inm;
      if (origin) out.origin = origin;
      if (xff) out['x-forwarded-for'] = xff;
      if (accept) out.accept = accept;
      return out;
    });

  const method = fc.oneof(
    { weight: 30, arbitrary: fc.constant(op.method) },
    { weight: 1, arbitrary: fc.constantFrom(...otherMethods.filter((m) => m !== op.method)) },
  );

  return fc
    .tuple(method, path, queryString(queryParams, world), headers, authorization(world, op.method !== 'GET'), bodyArbitrary(op, world))
    .map(([m, p, q, h, a, b]) => {
      const req: FuzzRequest = { method: m, url: `${p}${q}`, headers: { ...h }, auth: a.auth, documented: m === op.method };
      if (a.header !== undefined) req.headers.authorization = a.header;
      if (b.contentType !== undefined) req.headers['content-type'] = b.contentType;
      if (b.payload !== undefined) req.payload = b.payload;
      // Counterexamples print short: a 70 KiB payload is described, not dumped.
      const short = (v: string) => (v.length > 300 ? `${v.slice(0, 300)}…(${v.length} chars)` : v);
      Object.defineProperty(req, fc.toStringMethod, {
        value: () =>
          `${req.method} ${short(req.url)} headers=${short(JSON.stringify(req.headers))} payload=${req.payload === undefined ? '<none>' : short(req.payload)}`,
      });
      return req;
    });
}
