// Files on training reports and examinations (contract §20): added by whoever may write the record
// (at most 5 each, counted under the training's row lock), removed by their uploader or a Moderator
// or Administrator of the area, each change one write with its timeline and audit entries.
// Read by the API, the area's staff and — the visible ones of what was shown them — the student.
import { createHash } from 'node:crypto';
import { actorColumns, type AuditActor } from '../audit/domain/index.js';
import { ConflictError, ForbiddenError, NotFoundError, UnsupportedTypeError, ValidationError } from '../../core/domain/errors.js';
import { authorize, mayDo, type StaffMember } from '../roles/domain.js';
import {
  ATTACHMENT_BYTES_MAX,
  ATTACHMENTS_MAX,
  attachmentName,
  type AttachmentType,
  isAttachmentType,
  isPlainText,
  mayRemove,
  REFUSED_TYPE,
  studentSees,
  TOO_LARGE,
} from './attachments.domain.js';
import type { AttachmentTarget, PlacedAttachmentRow } from './attachments.repository.js';
import type { Attachment } from './attachments.schema.js';
import { presentAttachment } from './attachments.presenter.js';
import { recordTrainingChanges } from './changes.js';
import { isRowId, type TrainingsService } from './trainings.service.js';
import type { Deps, Write } from '../../app/deps.js';
import type { TrainingRecord } from './trainings.repository.js';

export interface UploadedFile {
  /** The name the client gave. */
  name: string;
  bytes: Buffer;
}

/** A file to send: its stored form and bytes. */
export interface AttachmentFile {
  name: string;
  type: string;
  sha256: string;
  content: Buffer;
}

/** The type of a file from its content: PDF, PNG, JPEG, or plain text; null for anything else. */
export async function sniffType(bytes: Buffer): Promise<AttachmentType | null> {
  // Imported on the first upload: a CLI command or a server start need not parse it.
  const { fileTypeFromBuffer } = await import('file-type');
  const found = await fileTypeFromBuffer(bytes);
  if (found) return isAttachmentType(found.mime) && found.mime !== 'text/plain' ? found.mime : null;
  return isPlainText(bytes) ? 'text/plain' : null;
}

const RECORD = { report: 'Report', examination: 'Examination' } as const;

export class TrainingAttachmentsService {
  constructor(private readonly deps: Deps<'writer' | 'repos' | 'config'> & { trainings: TrainingsService }) {}

  /** Adds a file to a report or an examination of the training: 201's attachment, or the refusal. */
  async upload(trainingId: number, target: AttachmentTarget, file: UploadedFile, hidden: boolean, actor: AuditActor): Promise<Attachment> {
    const type = await this.typeOf(file);
    return this.deps.writer.write(async (w) => {
      const t = await this.deps.trainings.locked(w, trainingId);
      const place = isRowId(target.id) ? await w.repos.attachments.targetOf(target) : undefined;
      if (place?.training_id !== t.id) throw new NotFoundError(RECORD[target.kind]);
      if (actor.kind === 'member') {
        const staff = await w.repos.roles.staffMember(actor.cid);
        if (target.kind === 'report') authorize(staff, 'report', { area: t.area_id, student: t.user_id });
        else {
          // Adding a file corrects nothing: an examiner adds files to their examination, graded or not.
          const x = await w.repos.trainingExaminations.find(t.id, target.id);
          authorize(staff, 'examination', { area: t.area_id, examiners: x?.examiners ?? [], graded: false });
        }
      }
      return this.attachLocked(w, t, target, file, type, hidden, actor);
    });
  }

  /** The file's type from its content, read before the write (null: not one taken; too large: not read). */
  typeOf(file: UploadedFile): Promise<AttachmentType | null> {
    return file.bytes.length > ATTACHMENT_BYTES_MAX ? Promise.resolve(null) : sniffType(file.bytes);
  }

  /**
   * Stores the file on the record inside `w`, the training `t` locked and the actor's right to add it
   * checked by the caller (staff by their role, a grading link's holder by the link).
   */
  async attachLocked(
    w: Write,
    t: TrainingRecord,
    target: AttachmentTarget,
    file: UploadedFile,
    type: AttachmentType | null,
    hidden: boolean,
    actor: AuditActor,
  ): Promise<Attachment> {
    if (file.bytes.length > ATTACHMENT_BYTES_MAX) throw new ValidationError({ file: [TOO_LARGE] });
    if (file.bytes.length === 0) throw new ValidationError({ file: ['The file is empty.'] });
    if (type === null) throw new UnsupportedTypeError(REFUSED_TYPE);
    // Under the training's lock: two uploads at once cannot both see room for one more.
    if ((await w.repos.attachments.countOn(target)) >= ATTACHMENTS_MAX)
      throw new ConflictError(`A ${target.kind} carries at most ${ATTACHMENTS_MAX} files; remove one first.`);
    const row = await w.repos.attachments.insert({
      ...(target.kind === 'report' ? { report_id: target.id } : { examination_id: target.id }),
      name: attachmentName(file.name, type),
      type,
      size: file.bytes.length,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
      content: file.bytes,
      hidden: hidden ? 1 : 0,
      uploader_id: actor.kind === 'member' ? actor.cid : null,
      uploader: actorColumns(actor).actor,
      created_at: w.at,
    });
    const on = { [target.kind]: target.id };
    await recordTrainingChanges(w, this.deps.config, [
      {
        actor,
        before: t,
        after: t,
        timeline: [{ action: 'attachment', detail: { ...on, file: row.name, hidden: row.hidden === 1 } }],
        event: null,
        mail: null,
        record: {
          attachment: row.id,
          ...on,
          name: row.name,
          type: row.type,
          size: row.size,
          sha256: row.sha256,
          hidden: row.hidden === 1,
        },
      },
    ]);
    return presentAttachment(row);
  }

  /** Removes a file: its uploader, a Moderator or Administrator of the area, or an edit key. */
  remove(id: number, actor: AuditActor): Promise<{ trainingId: number }> {
    return this.deps.writer.write(async (w) => {
      const seen = isRowId(id) ? await w.repos.attachments.find(id) : undefined;
      if (!seen) throw new NotFoundError('Attachment');
      const t = await this.deps.trainings.locked(w, seen.training_id);
      // Read again under the lock: another request may have removed it meanwhile.
      const found = await w.repos.attachments.find(id);
      if (!found) throw new NotFoundError('Attachment');
      if (actor.kind === 'member' && !mayRemove(await w.repos.roles.staffMember(actor.cid), found)) {
        throw new ForbiddenError('A file is removed by whoever uploaded it, or by a Moderator or Administrator of the area.');
      }
      await w.repos.attachments.remove(found.id);
      const on = found.report_id !== null ? { report: found.report_id } : { examination: found.examination_id };
      await recordTrainingChanges(w, this.deps.config, [
        {
          actor,
          before: t,
          after: t,
          timeline: [{ action: 'attachment_removed', detail: { ...on, file: found.name } }],
          event: null,
          mail: null,
          record: { attachment: found.id, ...on, name: found.name, removed: true },
        },
      ]);
      return { trainingId: t.id };
    });
  }

  /** The file for an API key (hidden ones too); 404 when there is none. */
  async forKey(id: number): Promise<AttachmentFile> {
    return this.file(isRowId(id) ? await this.deps.repos.attachments.find(id) : undefined);
  }

  /** The file for staff who see its training (the area's staff, the student's mentor); 404 otherwise. */
  async forStaff(staff: StaffMember, id: number): Promise<AttachmentFile> {
    const found = isRowId(id) ? await this.deps.repos.attachments.find(id) : undefined;
    return this.file(found && seesTraining(staff, found) ? found : undefined);
  }

  /** The file for the student: a visible one of a published report or a graded examination of their own; 404 otherwise. */
  async forStudent(cid: number, id: number): Promise<AttachmentFile> {
    const found = isRowId(id) ? await this.deps.repos.attachments.find(id) : undefined;
    return this.file(found && studentSees(cid, found) ? found : undefined);
  }

  private async file(found: PlacedAttachmentRow | undefined): Promise<AttachmentFile> {
    const content = found && (await this.deps.repos.attachments.content(found.id));
    if (!found || !content) throw new NotFoundError('Attachment');
    return { name: found.name, type: found.type, sha256: found.sha256, content };
  }
}

/** The staff who see a training: its area's staff, or the student's mentor (as for reports, §17). */
export const seesTraining = (staff: StaffMember, t: { area_id: number; user_id: number }) =>
  mayDo(staff, { kind: 'report', area: t.area_id, student: t.user_id }).ok;
