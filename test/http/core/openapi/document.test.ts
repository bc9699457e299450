// The served OpenAPI document: valid OpenAPI 3.1 by an independent validator, an operationId on
// every operation (client generators name their methods by them), servers and a license.
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../support/context.js';

type Operation = { operationId?: string };
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  servers?: Array<{ url: string }>;
  info: { license?: { name: string; identifier?: string } };
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

describe('GET /openapi.json', () => {
  let ctx: TestContext;
  let doc: Doc;

  beforeAll(async () => {
    ctx = await createTestContext({ env: { HOST: '0.0.0.0', PORT: '8123' } });
    const res = await ctx.request({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(() => ctx.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    // The validator dereferences in place: give it a copy.
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, JSON.stringify(result)).toBe(true);
    expect(result.warnings).toEqual([]);
    expect(result.specification).toBe('OpenAPI');
  });

  it('gives every operation a unique camelCase operationId', () => {
    const ids: Record<string, string> = {};
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!METHODS.includes(method)) continue;
        expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][a-zA-Z0-9]*$/);
        ids[`${method.toUpperCase()} ${path}`] = op.operationId!;
      }
    }
    expect(new Set(Object.values(ids)).size).toBe(Object.values(ids).length);
    expect(ids).toMatchObject({
      'GET /api/bookings': 'listBookings',
      'POST /api/bookings/create': 'createBooking',
      'POST /api/bookings/batch': 'createBookingBatch',
      'GET /api/bookings/{id}': 'getBooking',
      'PATCH /api/bookings/{id}': 'updateBooking',
      'DELETE /api/bookings/{id}': 'deleteBooking',
      'GET /api/users': 'listUsers',
      'GET /api/positions': 'listPositions',
      'GET /api/online': 'listOnline',
      'GET /api/events': 'streamEvents',
      'GET /calendar/bookings.ics': 'getCalendarFeed',
    });
  });

  it('documents the Idempotency-Key header of the creates and the header of a replayed response', () => {
    type Documented = { parameters?: Array<{ in: string; name: string }>; responses: Record<string, { headers?: object }> };
    for (const path of ['/api/bookings/create', '/api/bookings/batch']) {
      const op = (doc.paths[path] as Record<string, Documented>).post!;
      expect(
        op.parameters?.filter((p) => p.in === 'header').map((p) => p.name),
        path,
      ).toEqual(['idempotency-key']);
      expect(Object.keys(op.responses['201']!.headers ?? {}), path).toContain('idempotent-replayed');
    }
  });

  it('names the server from HOST and PORT, and the license', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: 'http://localhost:8123' })]);
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
  });
});
