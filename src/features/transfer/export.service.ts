import { exportText } from './export.presenter.js';
import type { Deps } from '../../app/deps.js';

/** `npx sector export`: the division's data in the import format. */
export class ExportService {
  constructor(private readonly deps: Deps<'snapshot'>) {}

  /** Read as of one moment: one snapshot of the database. */
  async text(): Promise<string> {
    return exportText(await this.deps.snapshot((repos) => repos.export.readDivision()));
  }
}
