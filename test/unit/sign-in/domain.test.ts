// The pure parts of signing in: which `next` paths are followed, and what counts as the network's
// description of a member.
import { describe, expect, it } from 'vitest';
import { landingOf, parseNetworkProfile, safeNext, signInRefusedFor } from '../../../src/features/sign-in/domain.js';

const response = (data: unknown) => ({ data });
const MEMBER = {
  cid: '1234567',
  personal: { name_first: 'Karin', name_last: 'Holm', email: 'karin@example.org' },
  vatsim: { rating: { id: 3, short: 'S2' }, region: { id: 'EMEA' }, division: { id: 'EUD' }, subdivision: { id: null } },
};

describe('safeNext', () => {
  it.each(['/', '/my/bookings', '/?area=Denmark&callsign=EKCH', '/bookings/12?x=%20y'])('follows %s', (next) => {
    expect(safeNext(next)).toBe(next);
  });
  it.each([
    undefined,
    42,
    '',
    'my/bookings',
    '//evil.example',
    '/\\evil',
    '/%2F%2Fevil',
    '/%5cevil',
    '/%E0%A4%A',
    '/a b',
    `/${'a'.repeat(600)}`,
    '/auth/login',
  ])('sends %j to /', (next) => {
    expect(safeNext(next)).toBe('/');
  });
});

describe('landingOf', () => {
  it.each([undefined, null, ''])('lands %j on the member home', (next) => {
    expect(landingOf(next)).toBe('/my');
  });
  it.each(['/', '/my/bookings', '/staff'])('follows %s', (next) => {
    expect(landingOf(next)).toBe(next);
  });
  it.each(['//evil.example', 'https://evil.example/', '/auth/login'])('sends %j to /, as safeNext does', (next) => {
    expect(landingOf(next)).toBe('/');
  });
});

describe('parseNetworkProfile', () => {
  it('reads the member, a null subdivision included', () => {
    expect(parseNetworkProfile(response(MEMBER))).toEqual({
      cid: 1234567,
      firstName: 'Karin',
      lastName: 'Holm',
      email: 'karin@example.org',
      rating: 3,
      region: 'EMEA',
      division: 'EUD',
      subdivision: null,
    });
  });
  it('keeps a name on one line: a NUL or another control character removed, a line break a space', () => {
    const named = (name_first: string, name_last: string) =>
      parseNetworkProfile(response({ ...MEMBER, personal: { ...MEMBER.personal, name_first, name_last } }));
    expect(named('Ka\u0000rin\u0007', 'Holm\r\nBerg')).toMatchObject({ firstName: 'Karin', lastName: 'Holm Berg' });
  });
  it('takes the rating by its short name when the id is unknown', () => {
    expect(parseNetworkProfile(response({ ...MEMBER, vatsim: { ...MEMBER.vatsim, rating: { id: 99, short: 'C1' } } }))?.rating).toBe(5);
  });
  it('reads C2 and I2, and keeps a rating number outside the list for signInRefusedFor to name', () => {
    const withRating = (rating: unknown) => response({ ...MEMBER, vatsim: { ...MEMBER.vatsim, rating } });
    expect(parseNetworkProfile(withRating({ id: 6, short: 'C2' }))?.rating).toBe(6);
    expect(parseNetworkProfile(withRating({ id: 9, short: 'I2' }))?.rating).toBe(9);
    expect(parseNetworkProfile(withRating({ id: 99, short: 'XX' }))?.rating).toBe(99);
  });
  it.each([
    ['no data envelope', MEMBER],
    ['a cid that is not a number', response({ ...MEMBER, cid: '12a' })],
    ['no names', response({ ...MEMBER, personal: { email: 'x@example.org' } })],
    ['a rating that is no number', response({ ...MEMBER, vatsim: { ...MEMBER.vatsim, rating: { id: '3', short: 'XX' } } })],
    ['a name of nothing but control characters', response({ ...MEMBER, personal: { ...MEMBER.personal, name_last: '\u0000\r\n' } })],
  ])('refuses %s', (_what, body) => {
    expect(parseNetworkProfile(body)).toBeNull();
  });
});

describe('signInRefusedFor', () => {
  it('refuses suspended and inactive accounts', () => {
    expect(signInRefusedFor(0)).toMatch(/suspended/);
    expect(signInRefusedFor(-1)).toMatch(/inactive/);
    expect(signInRefusedFor(1)).toBeNull();
    expect(signInRefusedFor(3)).toBeNull();
  });
  it('refuses a rating number outside the list, naming it', () => {
    expect(signInRefusedFor(99)).toMatch(/rating number 99, which is not a rating this site knows/);
    expect(signInRefusedFor(6)).toBeNull();
    expect(signInRefusedFor(9)).toBeNull();
  });
});
