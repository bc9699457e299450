// The kinds of mail a member may turn on or off, and the looks of the pages (contract §24): the one
// list other features name when they mail a member (src/features/notices/index.ts).

export const MAIL_KINDS = ['endorsements', 'activity', 'tasks', 'feedback', 'training'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];
export const isMailKind = (text: string): text is MailKind => (MAIL_KINDS as readonly string[]).includes(text);

/** On unless the member turned it off; feedback copies are off until a Moderator turns them on. */
export const MAIL_DEFAULTS: Readonly<Record<MailKind, boolean>> = {
  endorsements: true,
  activity: true,
  tasks: true,
  feedback: false,
  training: true,
};

/** What the settings page says each kind is. */
export const MAIL_KIND_LABELS: Readonly<Record<MailKind, string>> = {
  endorsements: 'Endorsements: issued, shortened, revoked, expired, and a solo about to end',
  activity: 'ATC activity: about to lapse, lapsed, and (for Moderators) inactive controllers online in your area',
  tasks: 'Tasks: requests between staff sent to you or answered',
  feedback: 'Feedback: a copy of feedback on your area’s positions (Moderators)',
  training: 'Training: your training’s status, mentors, reports and examinations',
};

/** The reason every mail of a kind gives for being sent. */
export const MAIL_KIND_REASONS: Readonly<Record<MailKind, string>> = {
  endorsements: 'You get this because mail about your endorsements is on in your settings.',
  activity: 'You get this because mail about ATC activity is on in your settings.',
  tasks: 'You get this because mail about tasks is on in your settings.',
  feedback: 'You get this because copies of feedback are on in your settings.',
  training: 'You get this because mail about your training is on in your settings.',
};

export const LOOKS = ['device', 'light', 'dark'] as const;
export type Look = (typeof LOOKS)[number];
export const isLook = (text: string): text is Look => (LOOKS as readonly string[]).includes(text);
export const LOOK_LABELS: Readonly<Record<Look, string>> = {
  device: 'Follow my device',
  light: 'Light',
  dark: 'Dark',
};

export interface MemberSettings {
  look: Look;
  mail: Record<MailKind, boolean>;
}

/** The settings from the stored rows (none: the defaults). */
export function settingsFrom(look: string | undefined, choices: ReadonlyArray<{ kind: string; enabled: number }>): MemberSettings {
  const mail = { ...MAIL_DEFAULTS };
  for (const c of choices) if (isMailKind(c.kind)) mail[c.kind] = c.enabled === 1;
  return { look: look !== undefined && isLook(look) ? look : 'device', mail };
}
