// Running Sector: health, metrics, backups and the delivery of the mail other features write.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature, RoutePlugin } from '../../app/feature.js';
import { registerBackupCommand } from './backup.cli.js';
import { HealthService } from './health.service.js';
import healthRoutes from './health.routes.js';
import { MailService } from './mail.service.js';
import { mailDeliveriesWorker } from './mail.worker.js';
import metricsRoutes from './metrics.routes.js';

// What other features use of this one.
export { examinerMail, trainingMail, type TrainingMailKind } from './mail.view.js';

export { outboxMetrics } from './outbox-metrics.js';

/** GET /metrics, when metrics are on (METRICS=0 turns them off). */
const metricsWhenOn: RoutePlugin = async (app, { services }) => {
  if (services.metrics) await app.register(metricsRoutes, { metrics: services.metrics });
};

function services(deps: ServiceDeps) {
  return {
    health: new HealthService(deps),
    /** Sends the mail writes leave in the outbox; null when SMTP_URL is not set. */
    mail: deps.config.mail ? new MailService({ ...deps, mail: deps.config.mail }) : null,
  };
}

export const operations: Feature<ReturnType<typeof services>> = {
  services,
  routes: { public: [healthRoutes, metricsWhenOn] },
  workers: ({ config }, { mail }) => (mail && config.mail ? [mailDeliveriesWorker({ mail, config: config.mail })] : []),
  cli: [registerBackupCommand],
};
