// The export document (docs/operations.md): the import format (docs/import-format.md) with the fields a lossless copy
// needs, in a fixed order with fixed formatting, so that the same data always gives the same bytes.
import { ratingCode } from '../members/domain/ratings.js';
import { isoMicros, isoMicrosOrNull, ymdHis } from '../../core/domain/time.js';
import type { DivisionRows } from './export.repository.js';
import { by, byText, groupBy } from './export-order.presenter.js';
import { exportTrainings } from './export-trainings.presenter.js';
import { exportTasksAndFeedback } from './export-tasks.presenter.js';
import { exportCommunity } from './export-community.presenter.js';

/** The export as a plain object; keys in the order they are written. */
export function exportDocument(rows: DivisionRows) {
  const areaName = new Map(rows.areas.map((a) => [a.id, a.name]));
  const callsign = new Map(rows.positions.map((p) => [p.id, p.callsign]));
  const area = (id: number) => areaName.get(id)!;
  const activity = groupBy(rows.activity, (r) => r.user_id);
  const endorsementAreas = groupBy(rows.endorsementAreas, (r) => r.endorsement_id);
  const endorsementPositions = groupBy(rows.endorsementPositions, (r) => r.endorsement_id);

  return {
    areas: rows.areas.map((a) => a.name).sort(byText),
    users: [...rows.users].sort(by((u) => u.id)).map((u) => ({
      id: u.id,
      email: u.email,
      first_name: u.first_name,
      last_name: u.last_name,
      rating: ratingCode(u.rating),
      region: u.region,
      division: u.division,
      subdivision: u.subdivision,
      atc_active_areas: Object.fromEntries(
        (activity.get(u.id) ?? []).map((r) => [area(r.area_id), r.active === 1] as const).sort((a, b) => byText(a[0], b[0])),
      ),
      // Only where the area is active (the import refuses a grace for any other); null: active with
      // no grace (activity counted from sessions), which an import keeps as it is.
      atc_grace_start: Object.fromEntries(
        (activity.get(u.id) ?? [])
          .filter((r) => r.active === 1)
          .map((r) => [area(r.area_id), isoMicrosOrNull(r.granted_at)] as const)
          .sort((a, b) => byText(a[0], b[0])),
      ),
      last_login: isoMicrosOrNull(u.last_login_at),
      created_at: isoMicros(u.created_at),
      updated_at: isoMicros(u.updated_at),
    })),
    positions: [...rows.positions].sort(by((p) => p.callsign)).map((p) => ({
      callsign: p.callsign,
      name: p.name,
      frequency: p.frequency,
      area: p.area_id === null ? null : area(p.area_id),
      rating: ratingCode(p.rating),
      required_facility: p.required_facility,
    })),
    endorsements: [...rows.endorsements]
      .sort(
        by(
          (e) => e.user_id,
          (e) => e.type,
          (e) => e.valid_from,
        ),
      )
      .map((e) => ({
        user_id: e.user_id,
        type: e.type,
        rating: e.rating,
        areas: (endorsementAreas.get(e.id) ?? []).map((l) => area(l.area_id)).sort(byText),
        positions: (endorsementPositions.get(e.id) ?? []).map((l) => callsign.get(l.position_id)!).sort(byText),
        valid_from: isoMicros(e.valid_from),
        valid_to: isoMicrosOrNull(e.valid_to),
        revoked: e.revoked === 1,
        revoked_at: e.revoked === 1 ? isoMicrosOrNull(e.revoked_at) : null,
        issued_by: e.issued_by,
        created_at: isoMicros(e.created_at),
        expiry_published_at: isoMicrosOrNull(e.expiry_published_at),
      })),
    roles: rows.roles
      .map((r) => ({ user_id: r.user_id, area: r.area_id === null ? null : area(r.area_id), role: r.role }))
      .sort(
        by(
          (r) => r.user_id,
          (r) => r.area ?? '',
          (r) => r.role,
        ),
      ),
    trainings: exportTrainings(rows, area),
    bookings: [...rows.bookings].sort(by((b) => b.id)).map((b) => ({
      id: b.id,
      user_id: b.user_id,
      callsign: callsign.get(b.position_id)!,
      time_start: ymdHis(b.time_start),
      time_end: ymdHis(b.time_end),
      source: b.source,
      training: b.training === 1,
      exam: b.exam === 1,
      event: b.event === 1,
      training_forced: b.training_forced === 1,
      deleted: b.deleted === 1,
      network_booking: b.network_booking,
      created_at: isoMicros(b.created_at),
      updated_at: isoMicros(b.updated_at),
      revision: b.revision,
    })),
    // Written only when there are any: an export of a division without templates is as it was.
    ...(rows.reportTemplates.length === 0
      ? {}
      : {
          report_templates: rows.reportTemplates
            .map((t) => ({
              area: area(t.area_id),
              name: t.name,
              content: t.content,
              created_at: isoMicros(t.created_at),
              updated_at: isoMicros(t.updated_at),
            }))
            .sort(
              by(
                (t) => t.area,
                (t) => t.name,
              ),
            ),
        }),
    // Likewise the facilities given a tier or a description (contract §22), by name.
    ...(rows.facilities.length === 0
      ? {}
      : {
          facilities: rows.facilities
            .map((f) => ({ name: f.name, tier: f.tier, description: f.description, updated_at: isoMicros(f.updated_at) }))
            .sort(by((f) => f.name)),
        }),
    // Tasks (§21) and feedback (§23), by id, each written only when there are any.
    ...exportTasksAndFeedback(rows, area, (id) => callsign.get(id)!),
    // Votes, sweatbox sessions and members' settings (contract §23, §24), each only when there are any.
    ...exportCommunity(rows, (id) => callsign.get(id)!),
  };
}

/** The bytes written: two-space JSON and a final newline. */
export function exportText(rows: DivisionRows): string {
  return `${JSON.stringify(exportDocument(rows), null, 2)}\n`;
}
