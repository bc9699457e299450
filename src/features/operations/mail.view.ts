// The mails students get about their training (contract §18) and examiners and staff about
// examinations and tasks (§20, §21), in the one mail layout (src/core/mail.view.ts).
import type { NewMail } from '../../core/mail.repository.js';
import { memberMail } from '../../core/mail.view.js';

export type TrainingMailKind = 'created' | 'status' | 'mentor' | 'report' | 'examination' | 'interest';

export interface TrainingMail {
  kind: TrainingMailKind;
  to: string;
  siteName: string;
  /** Sector's public address, for the link to the student's page. */
  publicUrl: string;
  firstName: string | null;
  area: string;
  /** What the mail says happened, one sentence each. */
  lines: readonly string[];
}

const SUBJECTS: Record<TrainingMailKind, string> = {
  created: 'Your training request',
  status: 'Your training has a new status',
  mentor: 'Your training has a mentor',
  report: 'A new training report',
  examination: 'Your examination',
  interest: 'Please confirm you still want your training',
};

export function trainingMail(m: TrainingMail): NewMail {
  return memberMail({
    ...m,
    subject: SUBJECTS[m.kind],
    lines: [`Your ${m.area} training.`, ...m.lines],
    link: {
      path: '/my/training',
      before: m.kind === 'interest' ? 'Confirm on your training page within 14 days, or the request is closed:' : 'See your training page:',
    },
    // Why it was sent (contract §24): the interest request is the one mail a member cannot turn off.
    why:
      m.kind === 'interest'
        ? 'You get this whatever your settings: without an answer the training would be closed unseen.'
        : 'You get this because mail about your training is on in your settings.',
  });
}

export interface ExaminerMail {
  to: string;
  siteName: string;
  publicUrl: string;
  firstName: string | null;
  /** "Examination planned", "Examination moved", … */
  subject: string;
  /** What happened, one sentence each. */
  lines: readonly string[];
  /** Where the mail points, and the sentence before the link (default: the member's page, for examiners). */
  link?: { path: string; action: string };
  /** Why the mail was sent (default: mail about training is on). */
  why?: string;
}

/** The mail an examiner gets when an examination they examine is planned, moved or cancelled (contract §20); also a staff member's about a task (§21). */
export function examinerMail(m: ExaminerMail): NewMail {
  return memberMail({
    ...m,
    link: { path: m.link?.path ?? '/my', before: m.link?.action ?? 'Your examinations are listed on your page:' },
    why: m.why ?? 'You get this because mail about training is on in your settings.',
  });
}
