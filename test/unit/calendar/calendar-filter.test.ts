import { describe, expect, it } from 'vitest';
import { feedQuery, filterKey, matchesFilter, parseCalendarFilter } from '../../../src/features/calendar/domain.js';

const parse = (q: { area?: string | string[]; callsign?: string | string[] }, mode: 'feed' | 'page' = 'feed') => {
  const r = parseCalendarFilter(q, mode);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.filter;
};
const booking = (callsign: string, area: string | null) => ({ callsignKey: callsign, areaKey: area });

describe('calendar filters', () => {
  it('normalise order, case and duplicates into one key', () => {
    expect(filterKey(parse({ area: ['Norway', 'denmark', 'NORWAY'], callsign: ['ekch_*', 'ENGM_TWR'] }))).toBe(
      filterKey(parse({ area: ['DENMARK', 'norway'], callsign: ['engm_twr', 'EKCH_*', 'EKCH_*'] })),
    );
  });

  it('match exact callsigns, prefixes with *, and areas; every kind given must match', () => {
    const f = parse({ area: 'Denmark', callsign: ['EKCH_*', 'EKDK_CTR'] });
    expect(matchesFilter(f, booking('EKCH_TWR', 'denmark'))).toBe(true);
    expect(matchesFilter(f, booking('EKDK_CTR', 'denmark'))).toBe(true);
    expect(matchesFilter(f, booking('EKDK_CTR_2', 'denmark'))).toBe(false);
    expect(matchesFilter(f, booking('EKCH_TWR', 'norway'))).toBe(false);
    expect(matchesFilter(f, booking('EKCH_TWR', null))).toBe(false);
  });

  it('read every page callsign as a prefix, and link the page to the same feed', () => {
    const f = parse({ area: 'Denmark', callsign: 'ekch' }, 'page');
    expect(matchesFilter(f, booking('EKCH_APP', 'denmark'))).toBe(true);
    expect(feedQuery(f)).toBe('?area=denmark&callsign=EKCH*');
    expect(feedQuery(parse({ area: '', callsign: ' ' }, 'page'))).toBe('');
  });

  it('refuse what no callsign or area looks like', () => {
    for (const callsign of ['*', 'E*K', 'A'.repeat(33), 'EK\u0000']) {
      expect(parseCalendarFilter({ callsign }, 'feed').ok, callsign).toBe(false);
    }
    expect(parseCalendarFilter({ area: Array.from({ length: 21 }, (_, i) => `a${i}`) }, 'feed').ok).toBe(false);
  });
});
