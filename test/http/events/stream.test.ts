// GET /api/events (docs/events.md): live events, Last-Event-ID resume, reset for an unknown id,
// heartbeats, a bounded buffer per client, and a clean end at SIGTERM. Against a real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../../support/context.js';
import { readDatabase } from '../../support/db-state.js';
import { buildBooking } from '../../support/factories.js';
import { startServer, type ServerProcess } from '../../support/processes.js';
import { importData } from '../../support/seed.js';
import { createBooking, openStream, POSITIONS, prepareDivision, type StreamMessage, USERS } from '../../support/webhooks.js';

const events = (m: StreamMessage[]) => m.filter((x) => x.event !== undefined);

describe('the live event stream', { timeout: 60_000 }, () => {
  const env = { DATABASE_URL: freshDatabaseUrl(), SECTOR_EVENT_STREAM_HEARTBEAT_MS: '300', SECTOR_EVENT_STREAM_BUFFER_BYTES: '65536' };
  let server: ServerProcess;
  let token: string;
  let readToken: string;
  let next = 0;

  beforeAll(async () => {
    ({ token, readToken } = await prepareDivision(env));
    server = await startServer(env);
  });
  afterAll(async () => {
    await server.stop('SIGKILL');
  });

  it('needs a key, and responds with text/event-stream, each event as id, event and data', async () => {
    const anonymous = await fetch(`${server.url}/api/events`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toHaveProperty('message');

    const stream = await openStream(server.url, readToken);
    expect(stream.status).toBe(200);
    expect(stream.response.headers['content-type']).toMatch(/^text\/event-stream/);
    const created = await createBooking(server.url, token, next++);
    const [event] = events(await stream.until((m) => events(m).length >= 1));
    expect(event!.event).toBe('booking.created');
    const body = JSON.parse(event!.data!);
    expect(body).toMatchObject({ id: event!.id, type: 'booking.created', data: { booking: { id: created.body.booking.id } } });
    stream.close();
  });

  it('is documented in the OpenAPI document as text/event-stream, needing a key', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, { get: Record<string, any> }> };
    const op = doc.paths['/api/events']!.get;
    expect(Object.keys(op.responses['200'].content)).toEqual(['text/event-stream']);
    expect(op.security).toEqual([{ bearer: [] }]);
    expect(op.parameters.map((p: { name: string }) => p.name.toLowerCase())).toContain('last-event-id');
  });

  it('sends a keep-alive comment on an idle stream', async () => {
    const stream = await openStream(server.url, readToken);
    await stream.until((m) => m.some((x) => x.comment === 'keep-alive'), 5_000);
    stream.close();
  });

  it('resumes after Last-Event-ID with what was missed, in order, then live events', async () => {
    const first = await openStream(server.url, readToken);
    await createBooking(server.url, token, next++);
    const [seen] = events(await first.until((m) => events(m).length >= 1));
    first.close();

    const missed = [await createBooking(server.url, token, next++), await createBooking(server.url, token, next++)];
    const resumed = await openStream(server.url, readToken, seen!.id);
    const replay = events(await resumed.until((m) => events(m).length >= 2));
    expect(replay.map((e) => JSON.parse(e.data!).data.booking.id)).toEqual(missed.map((r) => r.body.booking.id));
    const live = await createBooking(server.url, token, next++);
    const all = events(await resumed.until((m) => events(m).length >= 3));
    expect(JSON.parse(all[2]!.data!).data.booking.id).toBe(live.body.booking.id);
    expect(new Set(all.map((e) => e.id)).size).toBe(3);
    resumed.close();
  });

  it('starts with one reset for an unknown or expired Last-Event-ID, then live events', async () => {
    const stream = await openStream(server.url, readToken, 'evt_00000000000000000000000000');
    await stream.until((m) => events(m).length >= 1);
    const live = await createBooking(server.url, token, next++);
    const got = events(await stream.until((m) => events(m).length >= 2));
    expect(got[0]!.event).toBe('reset');
    expect(got[1]).toMatchObject({ event: 'booking.created' });
    expect(JSON.parse(got[1]!.data!).data.booking.id).toBe(live.body.booking.id);
    expect(got.filter((e) => e.event === 'reset')).toHaveLength(1);
    stream.close();
  });

  it('gives the types only named receivers get (feedback, tasks, …) only to a stream naming them in ?types=', async () => {
    const refused = await fetch(`${server.url}/api/events?types=booking.created,booking.nonsense`, {
      headers: { authorization: `Bearer ${readToken}` },
    });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { message: string }).message).toContain('unknown event type "booking.nonsense"');

    const first = await openStream(server.url, readToken);
    await createBooking(server.url, token, next++);
    const [seen] = events(await first.until((m) => events(m).length >= 1));
    first.close();
    // What a member wrote, committed between two bookings.
    const feedback = { id: 'evt_01KZZZZZZZZZZZZZZZZZZZZZZZ', type: 'feedback.created', body: '{"data":{"feedback":{"text":"Thanks!"}}}' };
    await readDatabase(env.DATABASE_URL, (db) =>
      db
        .insertInto('events')
        .values({ ...feedback, booking_id: null, created_at: Date.now(), network_push: 0 })
        .execute(),
    );
    const booked = await createBooking(server.url, token, next++);

    const plain = await openStream(server.url, readToken, seen!.id);
    const got = events(await plain.until((m) => events(m).length >= 1));
    expect(got.map((e) => e.event)).toEqual(['booking.created']);
    expect(JSON.parse(got[0]!.data!).data.booking.id).toBe(booked.body.booking.id);
    plain.close();

    const named = await openStream(server.url, readToken, seen!.id, '?types=feedback.created');
    const only = await named.until((m) => events(m).length >= 1 && m.filter((x) => x.comment === 'keep-alive').length >= 2, 5_000);
    expect(events(only).map((e) => [e.event, e.id])).toEqual([['feedback.created', feedback.id]]);
    named.close();
  });

  it('drops a client that stops reading once its buffer is full; it resumes with Last-Event-ID', async () => {
    const slow = await openStream(server.url, readToken);
    await createBooking(server.url, token, next++);
    await slow.until((m) => events(m).length >= 1);
    slow.response.pause();
    // Many events at once (an import of 24 000 bookings, some 10 MB of events): far more than the
    // client's bound and the sockets' buffers (the kernel alone may hold 4 MB on the server's side
    // and as much again on the client's, which made half as many events pass now and then).
    const MANY = 24_000;
    const base = Date.UTC(2032, 0, 1);
    const fmt = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
    const bookings = Array.from({ length: MANY }, (_, i) => {
      const start = base + Math.floor(i / POSITIONS.length) * 7_200_000;
      return buildBooking({
        user_id: USERS[i % USERS.length],
        callsign: POSITIONS[i % POSITIONS.length],
        time_start: fmt(start),
        time_end: fmt(start + 3_600_000),
      });
    });
    await importData(env, { bookings });

    const deadline = Date.now() + 20_000;
    while (!server.logs().includes('fell too far behind') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(server.logs()).toContain('fell too far behind');
    // Its stream ends early (what was in flight may be lost with the connection); it resumes
    // from the last event it did receive.
    slow.response.resume();
    await slow.ended;
    const received = events(slow.messages);
    expect(received.length).toBeLessThan(MANY + 1);
    const resumed = await openStream(server.url, readToken, received.at(-1)!.id);
    const rest = events(await resumed.until((m) => events(m).length >= MANY + 1 - received.length, 30_000));
    expect(rest[0]!.event).toBe('booking.created');
    resumed.close();
    // The API still responds.
    expect((await fetch(`${server.url}/api/bookings?limit=1`)).status).toBe(200);
  }, 90_000);

  it('ends open streams cleanly on SIGTERM, and the server exits', async () => {
    const stream = await openStream(server.url, readToken);
    await stream.until((m) => m.length >= 1);
    const code = await server.stop('SIGTERM');
    await stream.ended;
    expect(code).toBe(0);
    expect(stream.response.complete).toBe(true);
  });
});
