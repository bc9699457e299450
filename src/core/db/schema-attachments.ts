// Table types of the files on training reports and examinations (contract §20).
import type { Generated } from 'kysely';

export interface TrainingAttachmentsTable {
  id: Generated<number>;
  /** Exactly one of report_id and examination_id is set. */
  report_id: number | null;
  examination_id: number | null;
  name: string;
  /** application/pdf, image/png, image/jpeg or text/plain: found from the content. */
  type: string;
  size: number;
  /** Hex SHA-256 of the content. */
  sha256: string;
  content: Buffer;
  /** 1: shown to staff only, never to the student. */
  hidden: Generated<number>;
  /** CID of the member who uploaded it (null: an API key, the CLI or an import). */
  uploader_id: number | null;
  /** As the audit log writes it: `member:<cid>`, `key:<id>`, `cli`. */
  uploader: string;
  created_at: number;
}
