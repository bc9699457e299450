import { exportText } from './export.view.js';
import type { Deps } from '../../app/deps.js';

/** `npx sector export`: the division's data in the import format. */
export class Exports {
  constructor(private readonly deps: Deps<'snapshot'>) {}

  /** Read as of one moment: one snapshot of the database. */
  async text(): Promise<string> {
    return exportText(await this.deps.snapshot((repos) => repos.export.readDivision()));
  }
}
