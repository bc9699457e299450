// The member's settings and their data (contract §24): /my/settings (which mail, the look),
// /my/data (everything Sector holds about them) and user:erase (pseudonymise or delete a person).
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { SettingsService } from './settings.service.js';
import settingsRoutes from './settings.routes.js';
import { EraseService } from './erase.service.js';
import { registerEraseCommands } from './erase.cli.js';

function services(deps: ServiceDeps) {
  return {
    /** The member's settings page and data download. */
    settings: new SettingsService(deps),
    /** user:erase: a person pseudonymised or deleted on request. */
    erase: new EraseService(deps),
  };
}

export const settings: Feature<ReturnType<typeof services>> = {
  services,
  routes: { members: [settingsRoutes] },
  cli: [registerEraseCommands],
};
