// Limits on identifiers, defined once for the API's schemas, its validation and the importer.

/** VATSIM CIDs are positive and at most 8 digits. */
export const MIN_CID = 1;
export const MAX_CID = 99_999_999;
export const MAX_CID_DIGITS = 8;

/** Position callsigns (EKCH_TWR, EKDK_V_CTR): at most 30 characters, as staff may create them (contract §17). */
export const MAX_CALLSIGN_LENGTH = 30;

/** A booking's source: 1–16 characters of A-Z, 0-9, _ and - (after upper-casing). */
export const MIN_SOURCE_LENGTH = 1;
export const MAX_SOURCE_LENGTH = 16;
export const SOURCE_PATTERN = new RegExp(`^[A-Z0-9_-]{${MIN_SOURCE_LENGTH},${MAX_SOURCE_LENGTH}}$`);
export const SOURCE_RULE = `${MIN_SOURCE_LENGTH} to ${MAX_SOURCE_LENGTH} characters of A-Z, 0-9, _ and -`;
