// Mail to members: written by a change into the mail outbox in its own transaction (Write.mail), sent
// here after the commit by a worker on every instance, each mail claimed under a lease — so a
// change that commits sends its mail at least once, retried with back-off, and one that rolls back
// sends nothing. The transport is nodemailer's SMTP client.
import { createRequire } from 'node:module';
import type { Transporter } from 'nodemailer';
import type { MailConfig } from '../config-services.js';
import { retryDelay } from '../domain/events.js';
import type { MailRow } from '../repositories/mail.js';
import type { Repositories } from '../repositories/index.js';
import type { Worker, WorkerContext } from './workers/worker.js';
import type { Writer } from './write.js';

const MAX_ATTEMPTS = 10;
const BATCH = 20;

export class MailDeliveries implements Worker {
  readonly name = 'mail-deliveries';
  readonly runs = 'everywhere' as const;
  /** A failed mail is due again after its back-off: looked for at least that often. */
  readonly intervalMs: number;
  private readonly transport: Transporter;

  constructor(
    private readonly writer: Writer,
    private readonly repos: Repositories,
    private readonly config: MailConfig,
  ) {
    this.intervalMs = Math.min(30_000, config.retryBaseMs);
    const url = new URL(config.url);
    const secure = url.protocol === 'smtps:';
    // Loaded only where mail is set up: nodemailer is some forty modules of every process's start.
    const nodemailer = createRequire(import.meta.url)('nodemailer') as typeof import('nodemailer');
    this.transport = nodemailer.createTransport({
      host: url.hostname,
      port: url.port === '' ? (secure ? 465 : 587) : Number(url.port),
      secure,
      ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
      connectionTimeout: config.timeoutMs,
      greetingTimeout: config.timeoutMs,
      socketTimeout: config.timeoutMs,
    });
  }

  async run(ctx: WorkerContext): Promise<boolean> {
    const now = ctx.now();
    if (!(await this.repos.mail.anyDue(now))) return false;
    const claimed = await this.writer.write((w) => w.repos.mail.claimDue(now, now + 2 * this.config.timeoutMs + 10_000, BATCH));
    if (claimed.length === 0) return false;
    ctx.took();
    for (const mail of claimed) {
      if (ctx.signal.aborted) break;
      await this.send(mail, ctx);
    }
    return claimed.length === BATCH;
  }

  private async send(mail: MailRow, ctx: WorkerContext): Promise<void> {
    try {
      await this.transport.sendMail({
        from: this.config.from,
        // The address alone: a name beside it could carry what a header must not.
        to: mail.to_address,
        subject: mail.subject,
        text: mail.text_body,
        html: mail.html_body,
      });
      await this.writer.write((w) => w.repos.mail.sent(mail.id, ctx.now()));
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      const delay = retryDelay(mail.attempts, this.config.retryBaseMs, MAX_ATTEMPTS);
      await this.writer.write((w) =>
        w.repos.mail.failed(mail.id, ctx.now(), error.slice(0, 500), delay === null ? null : ctx.now() + delay),
      );
      // The server's response, never the mail: it holds a member's address.
      ctx.log.warn(
        { job: this.name, mail: mail.id, attempts: mail.attempts, error },
        delay === null ? 'mail given up' : 'mail not sent; retried later',
      );
    }
  }

  close(): void {
    this.transport.close();
  }
}
