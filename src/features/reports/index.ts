// Staff reports and statistics (contract §25): trainings, ATC activity, mentors and access as pages
// with charts drawn on the server and as CSV, and the audit log on a page for division-wide Administrators.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { ReportsService } from './reports.service.js';
import reportsRoutes from './reports.routes.js';

function services(deps: ServiceDeps) {
  return {
    /** The figures of the report pages and the audit page, with who may read them. */
    reports: new ReportsService(deps),
  };
}

export const reports: Feature<ReturnType<typeof services>> = {
  services,
  routes: { staff: [reportsRoutes] },
};
