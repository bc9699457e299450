// user:erase (contract §24): a person pseudonymised on request — or, with `delete`, their rows
// removed — in one transaction, audited without the erased values. What they caused elsewhere goes
// the way any change goes: roles revoked and trainings closed with their events (the hub hears),
// upcoming bookings cancelled (the network hears).
import type { Deps } from '../../app/deps.js';
import { type AuditActor, userTarget } from '../audit/domain/index.js';
import { cancelUpcomingBookings } from '../bookings/index.js';
import { revokeAllRoles } from '../roles/index.js';
import { closeTrainingsOnErasure } from '../trainings/index.js';
import { NotFoundError } from '../../core/domain/errors.js';

export interface Erased {
  cid: number;
  mode: 'pseudonymise' | 'delete';
  trainings_closed: number;
  roles_revoked: number;
  bookings_cancelled: number;
  events_deleted: number;
  mails_deleted: number;
}

export class EraseService {
  constructor(private readonly deps: Deps<'writer' | 'config'>) {}

  async erase(cid: number, mode: Erased['mode'], actor: AuditActor): Promise<Erased> {
    return this.deps.writer.write(async (w) => {
      const repo = w.repos.erase;
      const person = await repo.lockedPerson(cid);
      if (!person) throw new NotFoundError(`User ${cid}`);
      const fullName = [person.first_name, person.last_name].filter((s) => s !== null && s !== '').join(' ');
      // The pseudonym first: the events this erase causes carry it, not the name.
      await repo.pseudonymise(cid, w.at);
      const trainings_closed = await closeTrainingsOnErasure(w, this.deps.config, cid);
      const roles_revoked = await revokeAllRoles(w, cid, actor);
      const cancelled = await cancelUpcomingBookings(w, cid, actor);
      const events_deleted = fullName === '' ? 0 : await repo.deleteEventsNaming(fullName);
      const mails_deleted = await repo.deleteMailNaming(fullName, person.email);
      await repo.scrubAudit(cid, person);
      if (mode === 'delete') await repo.deleteRows(cid, w.settings.networkSync ? cancelled : []);
      const erased: Erased = {
        cid,
        mode,
        trainings_closed,
        roles_revoked,
        bookings_cancelled: cancelled.length,
        events_deleted,
        mails_deleted,
      };
      await w.audit(actor, [
        {
          action: mode === 'delete' ? 'user.deleted' : 'user.erased',
          target: userTarget(cid),
          before: null,
          after: { trainings_closed, roles_revoked, bookings_cancelled: cancelled.length },
        },
      ]);
      return erased;
    });
  }
}
