// The demo's life between staff and members (contract §21, §23): feedback on controllers, an open
// and a closed vote, sweatbox sessions and requests between staff, so a newcomer's first look at
// those pages finds something on them. Small and fixed in size, whatever the scale.
import type { Rng } from './random.js';
import { DAY, HOUR, iso, MINUTE } from './time.js';
import type { DemoCommunity, DemoPosition, DemoRole, DemoTraining, DemoUser } from './types.js';

const PRAISE = [
  'Very clear instructions and a friendly tone, even when it got busy.',
  'Great sequencing into the evening rush, thank you!',
  'Gave me a shortcut that saved ten minutes, much appreciated.',
];
const CONCERN = ['Missed my readback twice and I waited a long time for a reply.', 'The ATIS letter did not match what was broadcast.'];

/** The network's time format for sessions, as bookings use it. */
const stamp = (ms: number) => iso(ms).slice(0, 19).replace('T', ' ');
const whole = (ms: number) => Math.floor(ms / MINUTE) * MINUTE;

export function generateCommunity(
  rng: Rng,
  users: readonly DemoUser[],
  roles: readonly DemoRole[],
  trainings: readonly DemoTraining[],
  positions: readonly DemoPosition[],
  now: number,
): DemoCommunity {
  const empty: DemoCommunity = { tasks: [], feedback: [], votes: [], sweatbox: [] };
  const holders = (role: string, area?: string) =>
    [...new Set(roles.filter((r) => r.role === role && (area === undefined || r.area === area)).map((r) => r.user_id))].sort(
      (a, b) => a - b,
    );
  const admins = holders('Administrator');
  if (users.length < 10 || admins.length === 0 || positions.length === 0) return empty;
  const day = (offset: number) => Math.floor(now / DAY) * DAY + offset * DAY;

  const feedback = [...PRAISE, ...CONCERN].map((text, i) => {
    const position = rng.pick(positions);
    return {
      sender_id: rng.pick(users).id,
      controller: rng.pick(users).id,
      position: position.callsign,
      text,
      actioned: i < 2,
      created_at: iso(whole(now - (i + 1) * 2 * DAY - rng.int(0, 600) * MINUTE)),
    };
  });

  // Counts and voters agree: each voter once, each ballot counted once.
  const voters = [...new Set(users.slice(0, 40).map((u) => u.id))].slice(0, rng.int(12, 30));
  const split = rng.int(Math.ceil(voters.length / 3), voters.length - 2);
  const closed = day(-5) + 18 * HOUR;
  const votes = [
    {
      question: 'Which airport should host the spring fly-in?',
      closes_at: iso(closed),
      eligibility: 'members',
      options: [
        { text: 'Copenhagen Kastrup', count: split },
        { text: 'Stockholm Arlanda', count: voters.length - split },
      ],
      voters: voters.map((user_id) => ({ user_id, voted_on: iso(closed - 3 * DAY).slice(0, 10) })),
      created_by: admins[0]!,
      closed_at: iso(closed),
    },
    {
      question: 'Should the monthly staff meeting move to Sunday evenings?',
      closes_at: iso(day(9) + 20 * HOUR),
      eligibility: 'active',
      options: [
        { text: 'Yes, Sunday evenings', count: 0 },
        { text: 'No, keep Thursdays', count: 0 },
        { text: 'No preference', count: 0 },
      ],
      voters: [],
      created_by: admins[0]!,
      closed_at: null,
    },
  ];

  const mentors = holders('Mentor');
  const sweatbox =
    mentors.length === 0
      ? []
      : [1, 2, 4, 6].map((offset, i) => {
          const start = day(offset) + (17 + (i % 3)) * HOUR;
          return {
            callsign: positions[(i * 3) % positions.length]!.callsign,
            time_start: stamp(start),
            time_end: stamp(start + (i % 2 === 0 ? 2 : 1.5) * HOUR),
            user_id: rng.pick(mentors),
            notes: ['Departure flow with two pilots', 'Radar vectors for the ILS', 'Holding and expected approach times', ''][i]!,
          };
        });

  // A mentor asks one of the area's Moderators to upgrade a student whose training waits for the exam.
  const tasks = trainings
    .filter((t) => t.status >= 2 && holders('Mentor', t.area).length > 0 && holders('Moderator', t.area).length > 0)
    .slice(0, 3)
    .map((t, i) => ({
      type: i === 0 ? 'theory_exam' : 'rating_upgrade',
      status: i === 2 ? 'completed' : 'pending',
      subject_user_id: t.user_id,
      training: { area: t.area, created_at: t.created_at },
      rating: t.ratings[t.ratings.length - 1]!,
      message: i === 0 ? 'Ready for the theory exam after the last two sessions.' : null,
      creator_id: holders('Mentor', t.area)[0]!,
      assignee_id: holders('Moderator', t.area)[0]!,
      created_at: iso(whole(now - (i + 2) * DAY)),
      closed_at: i === 2 ? iso(whole(now - DAY)) : null,
      closed_message: i === 2 ? 'Upgraded on the network.' : null,
    }));

  return { tasks, feedback, votes, sweatbox };
}
