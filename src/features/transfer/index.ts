// Moving a division in and out: import, export, and the move from Control Center.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { registerControlCenterCommand } from './controlcenter/controlcenter.cli.js';
import { ExportService } from './export.service.js';
import { ImportService } from './import.service.js';
import { registerDataCommands } from './transfer.cli.js';

function services(deps: ServiceDeps) {
  return { imports: new ImportService(deps), exports: new ExportService(deps) };
}

export const transfer: Feature<ReturnType<typeof services>> = {
  services,
  cli: [registerDataCommands, registerControlCenterCommand],
};
