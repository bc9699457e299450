// The member's home, GET /my (contract §20): what a member sees first after signing in. It reads
// several features through their own services (their trainings, ATC hours, the staff overview) and
// the repositories' set-based queries (bookings, endorsements, examinations they hold); one query
// fetches the names of everyone it shows.
import { presentEndorsement, type Endorsement } from '../endorsements/index.js';
import type { ActivityExplanation, ActivityService } from '../activity/index.js';
import type { MemberBooking } from '../bookings/index.js';
import type { Overview, StaffService } from '../staff/index.js';
import type { ExaminerRow, StudentTrainings, StudentTrainingsService } from '../trainings/index.js';
import type { RolesService } from '../roles/index.js';
import type { MemberVote, VotesService } from '../votes/index.js';
import type { TaskPagesService } from '../tasks/index.js';
import type { Deps } from '../../app/deps.js';

export interface Home {
  /** The open training (or none) and the past ones, with the names they show. */
  trainings: StudentTrainings;
  /** Live bookings from now on. */
  bookings: MemberBooking[];
  /** Active endorsements, solos with their end. */
  endorsements: Endorsement[];
  /** ATC hours per area in the current period, with the activity status and grace (§16). */
  hours: ActivityExplanation[];
  /** Examinations from today on that the member holds as examiner. */
  examining: ExaminerRow[];
  /** CID -> "First Last" of the students examined. */
  names: ReadonlyMap<number, string>;
  /** For a member holding a staff role: what needs attention (the /staff overview); else null. */
  attention: Overview | null;
  /** Open votes the member may still vote in (§23). */
  votes: MemberVote[];
  /** For staff: how many tasks wait for them (§21). */
  tasksWaiting: number;
  /** YYYY-MM-DD, UTC. */
  today: string;
  now: number;
}

export class HomeService {
  constructor(
    private readonly deps: Deps<'repos' | 'clock'> & {
      studentTrainings: StudentTrainingsService;
      activity: ActivityService;
      staff: StaffService;
      roles: RolesService;
      votes: VotesService;
      taskPages: TaskPagesService;
    },
  ) {}

  async of(cid: number): Promise<Home> {
    const { repos } = this.deps;
    const now = this.deps.clock();
    const today = new Date(now).toISOString().slice(0, 10);
    const [trainings, bookings, endorsements, hours, examining, view, votes] = await Promise.all([
      this.deps.studentTrainings.of(cid),
      repos.memberBookings.bookings(cid, { from: now, to: Number.MAX_SAFE_INTEGER, cancelledSince: null }),
      repos.endorsements.list({ now, user_id: cid, active: true }),
      this.deps.activity.explain(cid),
      repos.trainingHistory.asExaminer(cid, today),
      this.deps.roles.viewer(cid),
      this.deps.votes.openFor(cid),
    ]);
    const [names, attention, tasksWaiting] = await Promise.all([
      repos.staff.names(examining.map((x) => x.user_id)),
      view.isStaff ? this.deps.staff.overview(view) : Promise.resolve(null),
      view.isStaff ? this.deps.taskPages.pendingFor(cid) : Promise.resolve(0),
    ]);
    return {
      trainings,
      bookings,
      endorsements: endorsements.map(presentEndorsement),
      hours,
      examining,
      names,
      attention,
      votes,
      tasksWaiting,
      today,
      now,
    };
  }
}
