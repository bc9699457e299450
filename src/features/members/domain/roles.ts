// Role names (docs/import-format.md) and how the deprecated /api/roles list groups them.

/** Role -> its list in /api/roles. Other roles (Buddy, custom ones) are not listed there. */
export const LEGACY_ROLE_LISTS = { Mentor: 'mentors', Moderator: 'moderators', Administrator: 'admins' } as const;
export type LegacyRole = keyof typeof LEGACY_ROLE_LISTS;
export const LEGACY_ROLES = Object.keys(LEGACY_ROLE_LISTS) as LegacyRole[];
