// Positions: the public list, and adding, changing and removing them (contract §17), one write
// each with its audit entry and event. A member on the pages needs Administrator of the area.
import { type AuditActor, changedFields, positionTarget } from '../audit/domain/index.js';
import { ConflictError, NotFoundError, ValidationError } from '../../core/domain/errors.js';
import { type PositionInput, positionProblems } from './domain.js';
import { ratingValue } from '../members/domain/ratings.js';
import { authorize } from '../roles/domain.js';
import { presentPosition, presentPositionDetail } from './positions.presenter.js';
import type { PositionDetail, PositionList } from './positions.schema.js';
import type { Write } from '../../app/deps.js';
import type { Deps } from '../../app/deps.js';

export class PositionsService {
  constructor(private readonly deps: Deps<'writer' | 'repos'>) {}

  /** GET /api/positions: every position. */
  async list(): Promise<PositionList> {
    return { data: (await this.deps.repos.positions.list()).map(presentPosition) };
  }

  /** Every position with its area, rating and required facility (the staff page). */
  async details(): Promise<PositionDetail[]> {
    const areas = new Map((await this.deps.repos.positions.areas()).map((a) => [a.id, a.name]));
    return (await this.deps.repos.positions.list()).map((p) => presentPositionDetail(p, p.area_id === null ? null : areas.get(p.area_id)!));
  }

  create(
    input: Required<Omit<PositionInput, 'required_facility'>> & Pick<PositionInput, 'required_facility'>,
    actor: AuditActor,
  ): Promise<PositionDetail> {
    return this.deps.writer.write(async (w) => {
      const p = { ...input, callsign: input.callsign.toUpperCase() };
      const area = await this.checked(w, p, actor, []);
      const row = await w.repos.positions.insert({
        callsign: p.callsign,
        name: p.name.trim(),
        frequency: p.frequency,
        area_id: area?.id ?? null,
        rating: ratingValue(p.rating)!,
        required_facility: p.required_facility?.trim() || null,
      });
      if (!row) throw new ConflictError(`A position with callsign ${p.callsign} already exists.`);
      return this.recorded(w, actor, 'position.created', null, presentPositionDetail(row, area?.name ?? null));
    });
  }

  update(callsign: string, input: Omit<PositionInput, 'callsign'>, actor: AuditActor): Promise<PositionDetail> {
    return this.deps.writer.write(async (w) => {
      const stored = await this.stored(w, callsign);
      const area = await this.checked(w, input, actor, [stored.row.area_id]);
      const row = (await w.repos.positions.update(stored.row.callsign, {
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        ...(input.frequency !== undefined ? { frequency: input.frequency } : {}),
        ...(area ? { area_id: area.id } : {}),
        ...(input.rating !== undefined ? { rating: ratingValue(input.rating)! } : {}),
        ...(input.required_facility !== undefined ? { required_facility: input.required_facility?.trim() || null } : {}),
      }))!;
      const after = presentPositionDetail(row, area ? area.name : stored.detail.area);
      return this.recorded(w, actor, 'position.updated', stored.detail, after);
    });
  }

  remove(callsign: string, actor: AuditActor): Promise<void> {
    return this.deps.writer.write(async (w) => {
      const stored = await this.stored(w, callsign);
      await this.checked(w, {}, actor, [stored.row.area_id]);
      // Bookings are written under their position's booking lock (PostgreSQL): taken before counting
      // them, so none is added on it between the count and the removal.
      if (w.dialect === 'postgres') await w.repos.bookings.lockPositions([stored.row.id]);
      const kept = await w.repos.positions.bookingsKeeping(stored.row.id);
      if (kept > 0) {
        throw new ConflictError(
          `${stored.row.callsign} has ${kept} booking${kept === 1 ? '' : 's'} that keep it (not deleted, or still to be sent to the network); change the position instead of removing it.`,
        );
      }
      await w.repos.positions.remove(stored.row.id);
      await this.recorded(w, actor, 'position.deleted', stored.detail, null);
    });
  }

  /** The stored position (its row held to the end of the write), or 404. */
  private async stored(w: Write, callsign: string) {
    const upper = callsign.toUpperCase();
    // No position has a control character in its callsign (PostgreSQL cannot even compare a NUL).
    if (/[\u0000-\u001f\u007f]/.test(upper)) throw new NotFoundError('Position');
    const row = await w.repos.positions.update(upper, {});
    if (!row) throw new NotFoundError('Position');
    const area = row.area_id === null ? null : ((await w.repos.positions.areas()).find((a) => a.id === row.area_id)?.name ?? null);
    return { row, detail: presentPositionDetail(row, area) };
  }

  /** The fields' rules, and a member's right to manage the areas concerned; the area named, if one is. */
  private async checked(
    w: Write,
    input: PositionInput,
    actor: AuditActor,
    storedAreas: Array<number | null>,
  ): Promise<{ id: number; name: string } | undefined> {
    const areas = await w.repos.positions.areas();
    const byName = new Map(areas.map((a) => [a.name.toLowerCase(), a]));
    const area = input.area === undefined ? undefined : byName.get(input.area.toLowerCase());
    const errors = positionProblems({ ...input, ...(area ? { area: area.name } : {}) }, new Set(areas.map((a) => a.name)));
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    if (actor.kind === 'member') {
      const staff = await w.repos.roles.staffMember(actor.cid);
      for (const a of [...storedAreas, ...(area ? [area.id] : [])]) authorize(staff, 'positions', { area: a });
    }
    return area;
  }

  private async recorded(
    w: Write,
    actor: AuditActor,
    action: 'position.created' | 'position.updated' | 'position.deleted',
    before: PositionDetail | null,
    after: PositionDetail | null,
  ): Promise<PositionDetail> {
    const position = (after ?? before)!;
    await w.audit(actor, [{ action, target: positionTarget(position.callsign), ...changedFields(before, after) }]);
    await w.publish([{ type: action, data: { position } }]);
    return position;
  }
}
