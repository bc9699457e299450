// Members' settings and the notifications sent once per key (contract §24; migration 0034).

export interface MemberSettingsTable {
  user_id: number;
  /** 'device' (follow the device), 'light' or 'dark'. */
  look: string;
  updated_at: number;
}

/** A member's choice for one kind of mail; no row: the kind's default. */
export interface MailChoicesTable {
  user_id: number;
  kind: string;
  enabled: number;
}

/** A notification sent: its key (kind and what it is about) is never sent again. */
export interface NoticesSentTable {
  key: string;
  /** Whom it concerns (their data request and erasure find it); null when about no one member. */
  user_id: number | null;
  sent_at: number;
}
