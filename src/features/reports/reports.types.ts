// What each report holds (contract §25), as the service computes it and the pages and CSV show it.
import type { Area } from '../roles/index.js';

export interface ReportScope {
  /** The areas the figures cover. */
  areas: Area[];
  /** The areas the viewer may pick from (the page's area links). */
  choices: Area[];
  /** The `?area=` chosen ('' for every readable area). */
  selected: string;
  /** What the figures cover, in words ("Denmark", "All areas (total)"). */
  label: string;
}

export interface TrainingsReport {
  scope: ReportScope;
  /** Per UTC month, oldest first, the current month last. */
  monthly: Array<{
    month: string;
    applications: number;
    started: number;
    completed: number;
    closedStaff: number;
    closedStudent: number;
    closedSystem: number;
  }>;
  /** Per area and what is trained for: waiting now, and the trainings that left that queue in the period with their median wait. */
  queue: Array<{ area: string; rating: string; waiting: number; left: number; medianWaitDays: number | null }>;
  statuses: Array<{ status: number; count: number }>;
  passRates: Array<{ rating: string; passed: number; failed: number; rate: number | null }>;
}

export interface ActivityReport {
  scope: ReportScope;
  monthly: Array<{ month: string; ms: number }>;
  members: { active: number; grace: number; inactive: number };
  top: Array<{ cid: number; name: string | null; ms: number }>;
}

export interface MentorsReport {
  scope: ReportScope;
  mentors: Array<{
    cid: number;
    name: string | null;
    trainees: number;
    reports30: number;
    reports90: number;
    /** Null: no report written in these areas. */
    daysSinceLast: number | null;
    examinations: number;
  }>;
}

export interface AccessReport {
  scope: ReportScope;
  names: ReadonlyMap<number, string>;
  roles: Array<{ user_id: number; role: string; area: string | null }>;
  endorsements: Array<{ user_id: number; type: string; rating: string | null; valid_to: number | null; areas: string[] }>;
}
