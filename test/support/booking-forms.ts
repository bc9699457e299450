// The two forms a booking is shown in (docs/api.md), as their keys in order: the full form to a
// caller with a key, the reduced one to anyone else.

export const FULL_KEYS = [
  'id',
  'source',
  'network_booking',
  'callsign',
  'position_id',
  'name',
  'time_start',
  'time_end',
  'user_id',
  'training',
  'event',
  'exam',
  'deleted',
  'created_at',
  'updated_at',
];

export const REDUCED_KEYS = ['id', 'callsign', 'time_start', 'time_end', 'training', 'event', 'exam', 'created_at', 'updated_at'];
