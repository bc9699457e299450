// Mail from several instances on one database (docs/training.md#e-mail): with a slow mail server each
// student gets their mail once, not once per instance that took it; and a mail whose sender was
// killed mid-send is sent by another instance once its claim lapses (at least once across a crash).
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection.js';
import { freshDatabaseUrl } from '../../support/context.js';
import { buildDivision, buildUser } from '../../support/factories.js';
import { startServer, type ServerProcess } from '../../support/processes.js';
import { createTrainings, importData } from '../../support/seed.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface MailServer {
  url: string;
  /** Messages accepted, per recipient. */
  accepted: Map<string, number>;
  /** Resolves when a message's data has arrived and is being held. */
  held: Promise<void>;
  close(): Promise<void>;
}

/**
 * A mail server that answers RCPT TO and the message's end `delayMs` late; with `holdFirst`, the first
 * message is never answered (its sender is killed meanwhile).
 */
async function startMailServer(delayMs: number, holdFirst = false): Promise<MailServer> {
  const accepted = new Map<string, number>();
  let hold = holdFirst;
  let onHeld: () => void = () => {};
  const held = new Promise<void>((resolve) => (onHeld = resolve));
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      setTimeout(callback, delayMs);
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        if (hold) {
          hold = false;
          onHeld();
          return;
        }
        setTimeout(() => {
          for (const r of session.envelope.rcptTo) accepted.set(r.address, (accepted.get(r.address) ?? 0) + 1);
          callback();
        }, delayMs);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, accepted, held, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const students = (n: number) => Array.from({ length: n }, (_, i) => 1_000_100 + i);

/** A division of `n` students, each with a new training: `n` mails waiting in the outbox. */
async function mailsWaiting(env: Record<string, string>, n: number): Promise<void> {
  const users = students(n).map((id) =>
    buildUser({ id, first_name: 'Student', last_name: `No${id}`, rating: 'S1', email: `${id}@example.org` }),
  );
  await importData(env, buildDivision({ users }));
  await createTrainings(
    env,
    students(n).map((user_id) => ({ user_id, area: 'Denmark', ratings: ['S2'] })),
  );
}

async function unsent(url: string): Promise<number> {
  const db = openDatabase(url);
  try {
    return (await db.kysely.selectFrom('mail_outbox').select('id').where('sent_at', 'is', null).execute()).length;
  } finally {
    await db.close();
  }
}

async function allSent(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await unsent(url)) > 0) {
    if (Date.now() > deadline) throw new Error(`mails still unsent after ${timeoutMs} ms: ${await unsent(url)}`);
    await sleep(250);
  }
}

describe('mail from two instances', () => {
  const servers: ServerProcess[] = [];
  const mailServers: MailServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.stop('SIGKILL')));
  });
  afterAll(async () => {
    await Promise.all(mailServers.map((m) => m.close()));
  });

  it('sends each of 25 mails once while the mail server answers each step 400 ms late', async () => {
    const mail = await startMailServer(400);
    mailServers.push(mail);
    // A send takes about a second here, each step within MAIL_TIMEOUT_MS; 20 of them outlasted one claim.
    const env = {
      DATABASE_URL: freshDatabaseUrl(),
      SMTP_URL: mail.url,
      MAIL_FROM: 'Sector <sector@example.org>',
      MAIL_TIMEOUT_MS: '1000',
      MAIL_RETRY_BASE_MS: '500',
    };
    await mailsWaiting(env, 25);
    servers.push(...(await Promise.all([startServer(env), startServer(env)])));

    await allSent(env.DATABASE_URL, 60_000);
    // A second copy still on its way would arrive within a send's time.
    await sleep(1500);
    const expected = new Map(students(25).map((id) => [`${id}@example.org`, 1]));
    expect(Object.fromEntries(mail.accepted)).toEqual(Object.fromEntries(expected));
  }, 90_000);

  it('sends a mail whose sender was killed mid-send from the other instance once its claim lapses', async () => {
    const mail = await startMailServer(0, true);
    mailServers.push(mail);
    const env = {
      DATABASE_URL: freshDatabaseUrl(),
      SMTP_URL: mail.url,
      MAIL_FROM: 'Sector <sector@example.org>',
      MAIL_TIMEOUT_MS: '300',
      MAIL_RETRY_BASE_MS: '500',
    };
    await mailsWaiting(env, 1);
    const first = await startServer(env);
    servers.push(first);
    await mail.held;
    await first.stop('SIGKILL');
    servers.push(await startServer(env));

    await allSent(env.DATABASE_URL, 30_000);
    expect(Object.fromEntries(mail.accepted)).toEqual({ [`${students(1)[0]}@example.org`]: 1 });
  }, 60_000);
});
