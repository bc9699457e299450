// The demo sign-in (npm run demo, docs/demo.md): one click signs in as a demo person, through the
// same session creation as the network's sign-in; only the round trip to the network is left out.
// Built only in demo mode, so a normal start has neither this service nor its routes.
import { ratingCode } from '../members/domain/ratings.js';
import type { DemoPersonRow } from './demo-people.repository.js';
import type { SessionsService } from './sessions.service.js';
import type { Deps } from '../../app/deps.js';

const TRIES: Record<string, string> = {
  Student: 'Books positions and follows their training in the queue.',
  Mentor: 'Sees the staff pages: their trainees, reports, solo endorsements.',
  Moderator: 'Runs the trainings, endorsements and people of an area.',
  Administrator: 'All of that, and positions and roles too.',
};

const nameOf = (p: DemoPersonRow) => [p.first_name, p.last_name].filter(Boolean).join(' ') || `CID ${p.id}`;

/** One person the demo sign-in offers. */
export interface DemoPerson {
  cid: number;
  name: string;
  rating: string;
  /** What they are in the demo: Student, Mentor, Moderator or Administrator. */
  kind: string;
  /** What they may try, in a few words. */
  tries: string;
}

export class DemoSignInService {
  constructor(private readonly deps: Deps<'repos'> & { sessions: SessionsService }) {}

  /** Whom the page offers: a student, a mentor, a moderator and an administrator of the demo division. */
  async people(): Promise<DemoPerson[]> {
    return (await this.deps.repos.demoPeople.list()).map((p) => {
      const kind = p.role ?? 'Student';
      return { cid: p.id, name: nameOf(p), rating: ratingCode(p.rating), kind, tries: TRIES[kind] ?? '' };
    });
  }

  /** A session for one of the people offered (the new session's id), or null for anyone else. */
  async signIn(cid: number): Promise<string | null> {
    const person = (await this.deps.repos.demoPeople.list()).find((p) => p.id === cid);
    if (person === undefined) return null;
    return this.deps.sessions.signIn({
      cid: person.id,
      firstName: person.first_name ?? '',
      lastName: person.last_name ?? '',
      email: person.email,
      rating: person.rating,
      region: person.region,
      division: person.division,
      subdivision: person.subdivision,
    });
  }
}
