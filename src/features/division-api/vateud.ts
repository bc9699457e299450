// The VATEUD Core driver (contract §22): the outbox's requests, through vateud-http.ts. Removes
// and retried creates list the hub's records and match `user_cid` and `position`, as the hub has no
// delete by cid and a create whose outcome was unknown may already be there.
import { type DeliveryOutcome, type DivisionDriver, type DivisionOperation, type HubFile, hubRows } from './driver.domain.js';
import type { HubReply, VateudHttp } from './vateud-http.js';

type Answer = { outcome: DeliveryOutcome; body: unknown };
type Listed = { id: number; user_cid: number; position: string };

export class VateudDriver implements DivisionDriver {
  constructor(private readonly hub: VateudHttp) {}

  describe(op: DivisionOperation): { method: string; path: string } {
    switch (op.op) {
      case 'assign_mentor':
      case 'assign_examiner':
      case 'remove_mentor':
      case 'remove_examiner': {
        const [verb, role] = op.op.split('_') as [string, string];
        return { method: 'POST', path: `/facility/training/${verb}/${op.cid}/${role}` };
      }
      case 'tier_add':
        return { method: 'POST', path: `/facility/endorsements/tier-${op.tier}` };
      case 'tier_remove':
        return { method: 'DELETE', path: `/facility/endorsements/tier-${op.tier}/{id}` };
      case 'solo_add':
        return { method: 'POST', path: '/facility/endorsements/solo' };
      case 'solo_remove':
        return { method: 'DELETE', path: '/facility/endorsements/solo/{id}' };
      case 'upgrade':
        return { method: 'POST', path: `/facility/user/${op.cid}/upgrade` };
      case 'theory_exam':
        return { method: 'POST', path: '/facility/training/exams/assign' };
      case 'cpt':
        return { method: 'POST', path: `/facility/user/${op.cid}/notes/cpt` };
    }
  }

  async send(
    op: DivisionOperation,
    { unknown, signal, file }: { unknown: boolean; signal: AbortSignal; file?: HubFile | undefined },
  ): Promise<DeliveryOutcome> {
    const { method, path } = this.describe(op);
    switch (op.op) {
      case 'assign_mentor':
      case 'assign_examiner':
      case 'remove_mentor':
      case 'remove_examiner':
        return (await this.call(method, path, signal, { user_cid: op.actingCid })).outcome;
      case 'upgrade':
        return (await this.call(method, path, signal, { new_rating: op.rating, instructor_cid: op.instructorCid })).outcome;
      case 'tier_add':
      case 'solo_add': {
        const list = op.op === 'tier_add' ? `/facility/endorsements/tier-${op.tier}` : '/facility/endorsements/solo';
        if (unknown) {
          const found = await this.find(list, op.cid, op.position, signal);
          if ('result' in found) return found;
          if (found.length > 0) return { result: 'sent' };
        }
        const body =
          op.op === 'tier_add'
            ? { user_cid: op.cid, position: op.position, instructor_cid: op.instructorCid }
            : { user_cid: op.cid, position: op.position, instructor_cid: op.instructorCid, expire_at: op.expireAt };
        return (await this.call('POST', list, signal, body)).outcome;
      }
      case 'tier_remove':
      case 'solo_remove': {
        const list = op.op === 'tier_remove' ? `/facility/endorsements/tier-${op.tier}` : '/facility/endorsements/solo';
        const found = await this.find(list, op.cid, op.position, signal);
        if ('result' in found) return found;
        for (const record of found) {
          const { outcome } = await this.call('DELETE', `${list}/${record.id}`, signal);
          // Already gone (another attempt deleted it) is what was wanted.
          if (outcome.result === 'refused' && /not found/i.test(outcome.message)) continue;
          if (outcome.result !== 'sent') return outcome;
        }
        return { result: 'sent' };
      }
      case 'theory_exam': {
        const exams = await this.call('GET', '/facility/training/exams', signal);
        if (exams.outcome.result !== 'sent') return exams.outcome;
        const wanted = op.rating - 1;
        const exam = (hubRows(exams.body) ?? []).find((e) => Number(e['flag_exam_type']) === wanted);
        if (!exam) return { result: 'refused', message: `The hub has no theory exam with flag_exam_type ${wanted}.` };
        return (await this.call('POST', path, signal, { user_cid: op.cid, exam_id: exam['id'], instructor_cid: op.instructorCid })).outcome;
      }
      case 'cpt':
        // No list of notes to match: after an unknown outcome the upload is sent again (at least once).
        if (!file) return { result: 'refused', message: 'The examination carries no file to send any more.' };
        return (await this.call(method, path, signal, undefined, await cptForm(op, file))).outcome;
    }
  }

  private async find(list: string, cid: number, position: string, signal: AbortSignal): Promise<Listed[] | DeliveryOutcome> {
    const listed = await this.call('GET', list, signal);
    if (listed.outcome.result !== 'sent') return listed.outcome;
    return (hubRows(listed.body) ?? [])
      .filter((r) => Number(r['user_cid']) === cid && r['position'] === position)
      .map((r) => ({ id: Number(r['id']), user_cid: cid, position }));
  }

  private async call(method: string, path: string, signal: AbortSignal, body?: object, form?: Form): Promise<Answer> {
    return answer(
      method,
      path,
      await this.hub.call(method, path, { signal, ...(body ? { body } : {}), ...(form ? { form } : {}), maxBytes: 4 * 1024 * 1024 }),
    );
  }
}

type Form = { bytes: Buffer; type: string };

/** The CPT upload as multipart/form-data, encoded by the platform (its boundary in the type). */
async function cptForm(op: Extract<DivisionOperation, { op: 'cpt' }>, file: HubFile): Promise<Form> {
  const form = new FormData();
  form.set('examiner_cid', String(op.examinerCid));
  form.set('position', op.position);
  form.set('cpt_pass', op.pass ? '1' : '0');
  form.set('file', new Blob([new Uint8Array(file.content)], { type: file.type }), file.name);
  const encoded = new Response(form);
  return { bytes: Buffer.from(await encoded.arrayBuffer()), type: encoded.headers.get('content-type')! };
}

function answer(method: string, path: string, r: HubReply): Answer {
  if (!r.ok) return { outcome: { result: 'retry', error: r.error, unknown: true }, body: null };
  if (r.status >= 200 && r.status < 300) return { outcome: { result: 'sent' }, body: r.body };
  const message = r.message ?? `HTTP ${r.status}`;
  if (r.status >= 400 && r.status < 500 && r.status !== 408 && r.status !== 429)
    return { outcome: { result: 'refused', message }, body: r.body };
  return { outcome: { result: 'retry', error: `${method} ${path}: ${message}`, unknown: false }, body: r.body };
}
