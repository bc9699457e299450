// Network controller ratings: code <-> numeric value, ordered by value. C2 and I2 are not issued
// today but are in the network's list, so a member may still hold them.
export const RATINGS = {
  INA: -1,
  SUS: 0,
  OBS: 1,
  S1: 2,
  S2: 3,
  S3: 4,
  C1: 5,
  C2: 6,
  C3: 7,
  I1: 8,
  I2: 9,
  I3: 10,
  SUP: 11,
  ADM: 12,
} as const;

export type RatingCode = keyof typeof RATINGS;

const BY_VALUE = new Map<number, RatingCode>(Object.entries(RATINGS).map(([code, value]) => [value, code as RatingCode]));

export const RATING_CODES = Object.keys(RATINGS) as RatingCode[];

export function isRatingCode(code: string): code is RatingCode {
  return Object.hasOwn(RATINGS, code);
}

export function ratingValue(code: string): number | undefined {
  return isRatingCode(code) ? RATINGS[code] : undefined;
}

export function isRatingValue(value: number): boolean {
  return BY_VALUE.has(value);
}

export function ratingCode(value: number): RatingCode {
  const code = BY_VALUE.get(value);
  if (code === undefined) throw new Error(`unknown rating value ${value}`);
  return code;
}
