/** Who may call a route: public (an invalid key is still 401), optional (a key unlocks more), read (any key), edit. */
export type AuthLevel = 'public' | 'optional' | 'read' | 'edit';
