// Mail to members sent from every instance, each mail claimed under a lease (mail.ts).
import type { MailConfig } from '../../app/config-services.js';
import type { MailService } from './mail.service.js';
import type { Worker } from '../../core/workers/worker.js';

export function mailDeliveriesWorker({
  mail,
  config,
}: {
  mail: Pick<MailService, 'sendNext'>;
  config: Pick<MailConfig, 'retryBaseMs'>;
}): Worker {
  return {
    name: 'mail-deliveries',
    runs: 'everywhere',
    // A failed mail is due again after its back-off: looked for at least that often.
    intervalMs: Math.min(30_000, config.retryBaseMs),
    run: (ctx) => mail.sendNext(ctx),
  };
}
