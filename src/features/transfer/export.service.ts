import { exportText } from './export.presenter.js';
import type { Deps } from '../../app/deps.js';

/** `npx sector export`: the division's data in the import format. */
export class ExportService {
  constructor(private readonly deps: Deps<'snapshot' | 'repos'>) {}

  /** Read as of one moment: one snapshot of the database. */
  async text(): Promise<string> {
    return (await this.document()).text;
  }

  /** The export's text and the hashes of the files it names (written apart, see attachment()). */
  async document(): Promise<{ text: string; files: string[] }> {
    const rows = await this.deps.snapshot((repos) => repos.export.readDivision());
    return { text: exportText(rows), files: [...new Set(rows.trainingAttachments.map((a) => a.sha256))].sort() };
  }

  /** A file's bytes by its hash; undefined when no attachment holds them any more. */
  attachment(sha256: string): Promise<Buffer | undefined> {
    return this.deps.repos.export.attachmentContent(sha256);
  }
}
