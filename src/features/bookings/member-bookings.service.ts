// Members' own bookings (docs/booking-pages.md) through the API's write path, with who-may-book checked
// in the write's transaction and the member as the audit actor.
import { randomBytes } from 'node:crypto';
import { userTarget } from '../audit/domain/index.js';
import { chosenFlags, type Tag } from './domain/flags.js';
import type { MemberFormFields } from './domain/member-form.js';
import { type Booker, mayBook, mayBookFor, mayChange, positionsOffered, tagsOffered } from './domain/who-may-book.js';
import { feedWindow } from '../calendar/domain.js';
import { ForbiddenError, NotFoundError } from '../../core/domain/errors.js';
import { isMember, membershipOf } from '../members/domain/membership.js';
import type { CalendarFeed } from '../calendar/index.js';
import type { ReadRepositories } from '../../app/repositories.js';
import type { MemberBooking, OfferedPosition } from './member-bookings.repository.js';
import type { Actor } from './changes.js';
import type { BookingPermit, BookingsService, SavedBooking } from './bookings.service.js';
import type { Deps } from '../../app/deps.js';

/** The signed-in member, as the session knows them. */
export interface Member {
  cid: number;
  name: string;
}

export interface OfferedChoice extends OfferedPosition {
  /** The tags the member may choose on it besides plain controlling. */
  tags: Tag[];
}

/** What the booking form offers a member. */
export interface BookingOffer {
  booker: Booker;
  positions: OfferedChoice[];
}

/** Feed secrets: 32 random bytes, URL-safe. */
const newSecret = (): string => randomBytes(32).toString('base64url');
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const actorOf = (member: Member): Actor => ({ kind: 'member', cid: member.cid, name: member.name });

/** The tag a stored booking was given by choice (forced training is not a choice). */
function storedTag(b: { training: number; training_forced: number; exam: number; event: number }): Tag | null {
  const chosen = chosenFlags(b);
  return chosen.training ? 1 : chosen.exam ? 2 : chosen.event ? 3 : null;
}

export class MemberBookingsService {
  constructor(private readonly deps: Deps<'writer' | 'repos' | 'config' | 'clock'> & { bookings: BookingsService; version: string }) {}

  /** Who the member is to who-may-book, as the database has them now; one unknown to it may book nothing. */
  async booker(member: Member): Promise<Booker> {
    return this.bookerOf(this.deps.repos.memberBookings, member.cid);
  }

  /** Who-may-book's facts about a user, read through `repo` (in a write's transaction: as of the write). */
  private async bookerOf(repo: ReadRepositories['memberBookings'], cid: number): Promise<Booker> {
    const facts = await repo.booker(cid, this.deps.clock());
    if (!facts) {
      return {
        cid,
        rating: 0,
        member: false,
        activeAreas: new Set(),
        visitingAreas: new Set(),
        trainingAreas: new Map(),
        staffAreas: new Set(),
      };
    }
    return {
      cid,
      rating: facts.user.rating,
      member: isMember(membershipOf(this.deps.config), facts.user),
      activeAreas: new Set(facts.activeAreas),
      visitingAreas: new Set(facts.visitingAreas),
      trainingAreas: new Map(facts.trainings.map((t) => [t.area_id, t.rating])),
      staffAreas: new Set(facts.staffAreas),
    };
  }

  /** The positions the member may book, each with the tags they may choose on it. */
  async offer(member: Member): Promise<BookingOffer> {
    const booker = await this.booker(member);
    const positions = positionsOffered(booker, await this.deps.repos.memberBookings.positions()).map((p) => ({
      ...p,
      tags: tagsOffered(booker, p),
    }));
    return { booker, positions };
  }

  create(member: Member, fields: MemberFormFields): Promise<SavedBooking> {
    return this.deps.bookings.save(null, { ...fields, cid: member.cid, source: 'CC' }, actorOf(member), {
      permit: this.bookingPermit(member),
    });
  }

  /** Changes a booking: the member's own, or anyone's in an area they are staff of. The booker stays. */
  update(member: Member, id: number, fields: MemberFormFields): Promise<SavedBooking> {
    return this.deps.bookings.save(id, fields, actorOf(member), { permit: this.bookingPermit(member) });
  }

  async cancel(member: Member, id: number): Promise<MemberBooking> {
    const permit: BookingPermit = async ({ existing, existingArea, repos }) => {
      const booker = await this.bookerOf(repos.memberBookings, member.cid);
      const decision = mayChange(booker, { user_id: existing!.user_id, area_id: existingArea });
      if (!decision.ok) throw new ForbiddenError(decision.reason);
    };
    await this.deps.bookings.remove(id, actorOf(member), permit);
    return (await this.deps.repos.memberBookings.booking(id))!;
  }

  /** A live booking the member may change, for the edit form. */
  async changeable(member: Member, id: number): Promise<MemberBooking> {
    const booking = await this.deps.repos.memberBookings.booking(id);
    if (!booking || booking.deleted) throw new NotFoundError('Booking');
    const booker = await this.booker(member);
    const decision = mayChange(booker, booking);
    if (!decision.ok) throw new ForbiddenError(decision.reason);
    return booking;
  }

  /** The tag the edit form shows for a stored booking (a forced training is not the member's choice). */
  tagOf(booking: MemberBooking): Tag | null {
    return storedTag(booking);
  }

  /** The member's bookings from now on, for "My bookings". */
  upcoming(member: Member): Promise<MemberBooking[]> {
    const now = this.deps.clock();
    return this.deps.repos.memberBookings.bookings(member.cid, { from: now, to: Number.MAX_SAFE_INTEGER, cancelledSince: null });
  }

  /** One of the member's own bookings, cancelled ones too (the confirmation after a change); anyone else's is none. */
  async own(member: Member, id: number): Promise<MemberBooking | null> {
    const booking = await this.deps.repos.memberBookings.booking(id);
    return booking?.user_id === member.cid ? booking : null;
  }

  /** The bookings a 409 named: what the form says the new booking overlaps. */
  conflicts(ids: readonly number[]): Promise<MemberBooking[]> {
    return this.deps.repos.memberBookings.byIds(ids);
  }

  /** The member's calendar feed secret, or null before they made one. */
  calendarSecret(member: Member): Promise<string | null> {
    return this.deps.repos.memberBookings.calendarSecret(member.cid);
  }

  /** A new feed secret for the member; the old address stops working. Audited without the secret. */
  async renewCalendar(member: Member): Promise<string> {
    const secret = newSecret();
    await this.deps.writer.write(async (w) => {
      await w.repos.memberBookings.setCalendarSecret(member.cid, secret, w.at);
      await w.audit(actorOf(member), [{ action: 'calendar.renewed', target: userTarget(member.cid), before: null, after: null }]);
    });
    return secret;
  }

  /** The member feed of a secret (§12 format, their bookings only), or null for an unknown secret. */
  async memberFeed(secret: string): Promise<CalendarFeed | null> {
    if (!SECRET_PATTERN.test(secret)) return null;
    const cid = await this.deps.repos.memberBookings.calendarOwner(secret);
    if (cid === null) return null;
    const bookings = await this.deps.repos.memberBookings.bookings(cid, feedWindow(this.deps.clock()));
    return { bookings, siteName: this.deps.config.siteName, siteHost: this.deps.config.siteHost, version: this.deps.version };
  }

  /** Who-may-book inside the write, on the member as stored: another member's booking stays on a position that member may book. */
  private bookingPermit(member: Member): BookingPermit {
    return async ({ fields, existing, existingArea, position, repos }) => {
      const repo = repos.memberBookings;
      const booker = await this.bookerOf(repo, member.cid);
      if (existing) {
        const owner = mayChange(booker, { user_id: existing.user_id, area_id: existingArea });
        if (!owner.ok) throw new ForbiddenError(owner.reason);
      }
      const tag = fields.tag !== undefined ? fields.tag : existing ? storedTag(existing) : null;
      const decision =
        existing && existing.user_id !== booker.cid
          ? mayBookFor(booker, await this.bookerOf(repo, existing.user_id), position, tag)
          : mayBook(booker, position, tag);
      if (!decision.ok) throw new ForbiddenError(decision.reason);
    };
  }
}
