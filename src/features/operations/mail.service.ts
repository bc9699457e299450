// Mail to members: written by a change into the mail outbox in its own transaction (Write.mail), sent
// here after the commit by a worker on every instance, each mail claimed under a lease — so a
// change that commits sends its mail at least once, retried with back-off, and one that rolls back
// sends nothing. The transport is nodemailer's SMTP client.
//
// A claim is one mail, leased for as long as its send may take: a send is abandoned at that bound,
// so no other instance takes the mail while this one may still be sending it (a batch claimed under
// one lease outlived it on a slow server and was sent again by the other instance).
import { createRequire } from 'node:module';
import type { SendMailOptions, Transporter } from 'nodemailer';
import type { MailConfig } from '../../app/config-services.js';
import { retryDelay } from '../events/domain.js';
import type { MailRow } from '../../core/mail.repository.js';
import type { ReadRepositories } from '../../app/repositories.js';
import type { WorkerContext } from '../../core/workers/worker.js';
import type { Writer } from '../../app/deps.js';
import type { Deps } from '../../app/deps.js';

const MAX_ATTEMPTS = 10;
/**
 * The waits on the server of one send, each within MAIL_TIMEOUT_MS: setting up the connection (to the
 * end of STARTTLS), EHLO, AUTH LOGIN's three, MAIL FROM, RCPT TO, DATA, the message's end, and one spare.
 */
const SEND_STEPS = 10;
/** After the send, the write that records it (SQLite may wait up to 5 s for the lock) lands within the lease. */
const RECORD_MS = 10_000;

export class MailService {
  private readonly transport: Transporter;
  /** How long one send may take before it is abandoned. */
  private readonly sendBoundMs: number;

  private readonly writer: Writer;
  private readonly repos: ReadRepositories;
  private readonly config: MailConfig;

  constructor({ writer, repos, mail: config }: Deps<'writer' | 'repos'> & { mail: MailConfig }) {
    this.writer = writer;
    this.repos = repos;
    this.config = config;
    this.sendBoundMs = SEND_STEPS * config.timeoutMs;
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

  /** One worker run (mail.worker.ts): true when it sent a mail and more may be due. */
  async sendNext(ctx: WorkerContext): Promise<boolean> {
    if (!(await this.repos.mail.anyDue(ctx.now()))) return false;
    // The lease runs from the claim's own time, taken once the write holds its lock.
    const mail = await this.writer.write((w) => w.repos.mail.claimNext(w.at, w.at + this.sendBoundMs + RECORD_MS));
    if (!mail) return false;
    ctx.took();
    await this.send(mail, ctx);
    return true;
  }

  private async send(mail: MailRow, ctx: WorkerContext): Promise<void> {
    const message: SendMailOptions & { signal: AbortSignal } = {
      from: this.config.from,
      // The address alone: a name beside it could carry what a header must not.
      to: mail.to_address,
      subject: mail.subject,
      text: mail.text_body,
      html: mail.html_body,
      // nodemailer closes the connection when it aborts: at the bound of the claim's lease, or at stop.
      signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(this.sendBoundMs)]),
    };
    try {
      await this.transport.sendMail(message);
      await this.writer.write((w) => w.repos.mail.sent(mail.id, ctx.now()));
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      const delay = retryDelay(mail.attempts, this.config.retryBaseMs, MAX_ATTEMPTS);
      await this.writer.write((w) =>
        w.repos.mail.failed(mail.id, ctx.now(), error.slice(0, 500), delay === null ? null : ctx.now() + delay),
      );
      // The server's response, never the mail: it holds a member's address.
      ctx.log.warn(
        { job: 'mail-deliveries', mail: mail.id, attempts: mail.attempts, error },
        delay === null ? 'mail given up' : 'mail not sent; retried later',
      );
    }
  }

  close(): void {
    this.transport.close();
  }
}
