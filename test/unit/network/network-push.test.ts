import { describe, expect, it } from 'vitest';
import {
  classifyLookup,
  retryAfterMs,
  classifyResponse,
  decidePush,
  describeResponse,
  findPosted,
  networkBody,
  networkType,
  retryDelay,
  type PushedBooking,
} from '../../../src/features/network/domain.js';

const booking: PushedBooking = {
  callsign: 'EKCH_TWR',
  user_id: 1000001,
  time_start: Date.UTC(2026, 11, 1, 10, 0, 0),
  time_end: Date.UTC(2026, 11, 1, 12, 30, 0),
  training: 0,
  exam: 0,
  event: 0,
  deleted: 0,
  network_booking: null,
};
const division = { division: 'EUD', subdivisions: ['SCA'] };

describe('network push rules', () => {
  it('maps flags to one type: the chosen event or exam over (forced) training', () => {
    expect(networkType({ training: 0, exam: 0, event: 0 })).toBe('booking');
    expect(networkType({ training: 1, exam: 0, event: 0 })).toBe('training');
    expect(networkType({ training: 1, exam: 1, event: 0 })).toBe('exam');
    expect(networkType({ training: 1, exam: 0, event: 1 })).toBe('event');
  });

  it('sends division and the single subdivision only when set, and never a subdivision alone', () => {
    expect(networkBody(booking, division)).toEqual({
      callsign: 'EKCH_TWR',
      cid: 1000001,
      type: 'booking',
      start: '2026-12-01 10:00:00',
      end: '2026-12-01 12:30:00',
      division: 'EUD',
      subdivision: 'SCA',
    });
    expect(networkBody(booking, { division: 'EUD', subdivisions: ['SCA', 'BAL'] })).not.toHaveProperty('subdivision');
    const bare = networkBody(booking, { division: null, subdivisions: ['SCA'] });
    expect(bare).not.toHaveProperty('division');
    expect(bare).not.toHaveProperty('subdivision');
  });

  it('reconciles the current state: create, update, delete, or nothing for a delete never pushed', () => {
    expect(decidePush(booking, null, division).kind).toBe('create');
    expect(decidePush({ ...booking, network_booking: '7' }, null, division)).toMatchObject({ kind: 'update', id: '7' });
    expect(decidePush({ ...booking, network_booking: '7', deleted: 1 }, null, division)).toEqual({ kind: 'delete', id: '7' });
    expect(decidePush({ ...booking, deleted: 1 }, null, division)).toEqual({ kind: 'nothing' });
    const posted = networkBody(booking, division);
    expect(decidePush(booking, posted, division)).toEqual({ kind: 'lookup', posted });
    expect(decidePush({ ...booking, deleted: 1 }, posted, division)).toEqual({ kind: 'lookup', posted });
  });

  it('finds an earlier POST in the list only by its exact callsign, cid, start and end', () => {
    const posted = networkBody(booking, division);
    const row = { id: 12, callsign: 'EKCH_TWR', cid: 1000001, start: posted.start, end: posted.end };
    expect(findPosted([row], posted)).toBe('12');
    expect(findPosted([{ ...row, cid: '1000001' }], posted)).toBe('12');
    expect(findPosted([{ ...row, end: '2026-12-01 13:00:00' }], posted)).toBeNull();
    expect(findPosted([{ ...row, callsign: 'EKCH_TWR_X' }], posted)).toBeNull();
  });

  it('classifies responses: retry what may pass (and a rejected key), refuse other 4xx', () => {
    expect(classifyResponse('POST', 201)).toEqual({ kind: 'done' });
    expect(classifyResponse('DELETE', 204)).toEqual({ kind: 'done' });
    expect(classifyResponse('DELETE', 404)).toEqual({ kind: 'done' });
    expect(classifyResponse('PUT', 404)).toEqual({ kind: 'lost' });
    expect(classifyResponse('POST', 422)).toEqual({ kind: 'refused' });
    expect(classifyResponse('POST', 400)).toEqual({ kind: 'refused' });
    for (const status of [null, 408, 429, 500, 502, 503])
      expect(classifyResponse('POST', status)).toEqual({ kind: 'retry', operator: false });
    expect(classifyResponse('PUT', 401)).toEqual({ kind: 'retry', operator: true });
    expect(classifyResponse('POST', 302)).toEqual({ kind: 'retry', operator: true });
  });

  it('backs off from the base, doubling, capped at one hour', () => {
    expect([1, 2, 3, 4].map((n) => retryDelay(n, 5000))).toEqual([5000, 10_000, 20_000, 40_000]);
    expect(retryDelay(12, 5000)).toBe(3_600_000);
    expect(retryDelay(10_000, 5000)).toBe(3_600_000);
  });

  it("quotes the network's message and per-field errors on one bounded line", () => {
    expect(describeResponse(422, JSON.stringify({ callsign: ['Booking overlaps with an existing booking: 9'] }))).toBe(
      'HTTP 422: callsign: Booking overlaps with an existing booking: 9',
    );
    expect(describeResponse(401, JSON.stringify({ error: 'Token does not exist' }))).toBe('HTTP 401: Token does not exist');
    expect(describeResponse(422, JSON.stringify({ message: 'Invalid', errors: { start: ['bad'] } }))).toBe('HTTP 422: Invalid; start: bad');
    expect(describeResponse(500, '<html>\n oops</html>')).toBe('HTTP 500: <html> oops</html>');
    expect(describeResponse(400, 'x'.repeat(5000)).length).toBe(500);
  });
});

describe('responses that delay or settle a push', () => {
  it('never takes a look-up response other than a 200 list as a success or a refusal', () => {
    for (const status of [200, 201, 204, 400, 404, 422, 500, null]) {
      expect(classifyLookup(status)).toEqual({ kind: 'retry', operator: false });
    }
    expect(classifyLookup(401)).toEqual({ kind: 'retry', operator: true });
  });

  it('reads Retry-After on a 429 or 503 as seconds or an HTTP-date, at most an hour', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    expect(retryAfterMs(429, '120', now)).toBe(120_000);
    expect(retryAfterMs(503, new Date(now + 90_000).toUTCString(), now)).toBe(90_000);
    expect(retryAfterMs(503, 'Wed, 01 Jan 2025 00:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(429, '999999', now)).toBe(3_600_000);
    expect(retryAfterMs(500, '120', now)).toBeNull();
    expect(retryAfterMs(429, 'soon', now)).toBeNull();
    expect(retryAfterMs(429, '-5', now)).toBeNull();
    expect(retryAfterMs(429, undefined, now)).toBeNull();
  });
});
