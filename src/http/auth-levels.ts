/**
 * Who may call a route:
 * - public:   anyone; a key is optional (an invalid one is still 401)
 * - optional: anyone; a valid key unlocks more (the full booking form)
 * - read:     any valid key
 * - edit:     a key with edit scope
 */
export type AuthLevel = 'public' | 'optional' | 'read' | 'edit';
