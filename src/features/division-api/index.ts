// The division's hub (contract §22): requests owed to it, queued from the outbox and sent by one
// worker through the hub's driver (vateud.ts); nothing when DIVISION_API is unset.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { VERSION } from '../../version.js';
import { registerDivisionApiCommands } from './division-api.cli.js';
import { DivisionApiService } from './division-api.service.js';
import { divisionApiWorker } from './division-api.worker.js';
import { registerDivisionSyncCommands } from './division-sync.cli.js';
import { DivisionSyncService } from './division-sync.service.js';
import { divisionSyncWorker } from './division-sync.worker.js';
import { VateudSyncHub } from './vateud-sync.js';
import { VateudDriver } from './vateud.js';
import { DivisionQuestionsService } from './division-questions.service.js';
import { VateudQuestions } from './vateud-questions.js';
import { VateudHttp } from './vateud-http.js';

export type { DivisionApiService } from './division-api.service.js';
export type { DivisionSyncService } from './division-sync.service.js';
export { divisionApiMetrics } from './division-api.metrics.js';
export type { DivisionQuestionsService } from './division-questions.service.js';
export type { MemberHubExams } from './questions.domain.js';

function services(deps: ServiceDeps) {
  const config = deps.config.divisionApi;
  if (!config) return { divisionApi: null, divisionSync: null, divisionQuestions: null };
  // One way of asking the hub, for the outbox's requests, the reconcile and the live questions.
  const hub = new VateudHttp({ http: deps.http, config, userAgent: `Sector/${VERSION} (${deps.config.division ?? '-'})` });
  const divisionApi = new DivisionApiService({ ...deps, config, driver: new VateudDriver(hub) });
  return {
    /** Null when DIVISION_API is unset (as the two below). */
    divisionApi: divisionApi as DivisionApiService | null,
    /** The reconcile (division:sync). */
    divisionSync: new DivisionSyncService({
      ...deps,
      hub: new VateudSyncHub(hub),
      divisionApi,
      leaseMs: syncLeaseMs(config.timeoutMs),
    }) as DivisionSyncService | null,
    /** The live questions (issuing a solo, the person page). */
    divisionQuestions: new DivisionQuestionsService({
      questions: new VateudQuestions(hub, config.questionTimeoutMs),
      clock: deps.clock,
    }) as DivisionQuestionsService | null,
  };
}

/** A reconcile renews its lease after each request: it outlasts the three reads with room to spare. */
const syncLeaseMs = (timeoutMs: number) => timeoutMs * 4 + 60_000;

export const divisionApi: Feature<ReturnType<typeof services>> = {
  services,
  workers: (deps, { divisionApi, divisionSync }) =>
    divisionApi && divisionSync && deps.config.divisionApi
      ? [
          divisionApiWorker({ divisionApi }, deps.config.divisionApi.timeoutMs),
          divisionSyncWorker({ divisionSync }, syncLeaseMs(deps.config.divisionApi.timeoutMs)),
        ]
      : [],
  cli: [registerDivisionApiCommands, registerDivisionSyncCommands],
};
