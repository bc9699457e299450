// Training mail (contract §18) through a real SMTP server process: a committed change sends its
// mail (plain text and HTML of the same words), a refused one sends nothing, a name cannot add a
// header or a recipient, and a mail the server refuses is retried until it goes.
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { ADA, BO, buildDivision, buildUser } from '../../support/factories.js';
import { eventually } from '../../support/network-sync.js';

interface Received {
  rcpt: string[];
  mail: ParsedMail;
  raw: string;
}

describe('training mail through a real SMTP server', () => {
  let ctx: TestContext;
  let server: SMTPServer;
  let edit: string;
  const received: Received[] = [];
  let refuseNext = 0;

  const waitFor = async (n: number) => {
    for (let i = 0; i < 200 && received.length < n; i++) {
      await new Promise((r) => setTimeout(r, 25));
      // The application's clock follows real time here, so a retry's back-off passes.
      ctx.setNow(Date.now());
    }
    return received;
  };

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          if (refuseNext > 0) {
            refuseNext--;
            callback(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 451 }));
            return;
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          void simpleParser(raw).then((mail) => {
            received.push({ rcpt: session.envelope.rcptTo.map((r) => r.address), mail, raw });
            callback();
          });
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.server.address() as AddressInfo).port;
    ctx = await createTestContext({
      env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Sector <sector@example.org>', MAIL_RETRY_BASE_MS: '50', SITE_NAME: 'vACC' },
    });
    await ctx.load(
      buildDivision({
        users: [
          buildUser({ email: 'ada@example.org' }),
          buildUser({ id: BO, first_name: 'Bo\r\nBcc: evil@example.com\r\nX-Injected: yes', rating: 'S2', email: 'bo@example.org' }),
        ],
      }),
    );
    edit = await ctx.key('edit');
    ctx.services.workers.start();
  });
  afterAll(async () => {
    await ctx.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends the student a mail when their training is created, in text and HTML, after the commit', async () => {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/trainings',
      token: edit,
      payload: { user_id: ADA, area: 'Denmark', ratings: ['S2'] },
    });
    expect(res.statusCode).toBe(201);
    const [first] = await waitFor(1);
    expect(first!.rcpt).toEqual(['ada@example.org']);
    expect(first!.mail.subject).toBe('vACC: Your training request');
    expect(first!.mail.from?.value).toEqual([{ name: 'Sector', address: 'sector@example.org' }]);
    expect(first!.mail.text).toContain('Hello Ada,');
    expect(first!.mail.text).toContain('Your Denmark training.');
    expect(first!.mail.text).toMatch(/http:\/\/[^\s]+\/my\/training/);
    expect(first!.mail.html).toContain('<p>Hello Ada,</p>');
    // The server has the mail before the worker's write records it as sent.
    const row = await eventually(
      () =>
        ctx.services.db.kysely
          .selectFrom('mail_outbox')
          .select(['sent_at', 'attempts'])
          .where('sent_at', 'is not', null)
          .executeTakeFirst(),
      'the mail recorded as sent',
    );
    expect(row.sent_at).not.toBeNull();
  });

  it('sends nothing for a refused change', async () => {
    const before = received.length;
    const res = await ctx.request({
      method: 'POST',
      url: '/api/trainings',
      token: edit,
      payload: { user_id: ADA, area: 'Nowhere', ratings: ['S2'] },
    });
    expect(res.statusCode).toBe(422);
    await new Promise((r) => setTimeout(r, 300));
    expect(received.length).toBe(before);
    expect(await ctx.services.db.kysely.selectFrom('mail_outbox').select('id').execute()).toHaveLength(1);
  });

  it('keeps a name with line breaks in the body: no header, no recipient added; retries a mail the server refuses', async () => {
    refuseNext = 1;
    const before = received.length;
    const res = await ctx.request({
      method: 'POST',
      url: '/api/trainings',
      token: edit,
      payload: { user_id: BO, area: 'Denmark', ratings: ['S3'] },
    });
    expect(res.statusCode).toBe(201);
    const mail = (await waitFor(before + 1))[before]!;
    expect(mail.rcpt).toEqual(['bo@example.org']);
    expect(mail.mail.headers.has('bcc')).toBe(false);
    expect(mail.mail.headers.has('x-injected')).toBe(false);
    expect(mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n'))).not.toMatch(/^(Bcc|X-Injected):/im);
    expect(mail.mail.text).toContain('Hello Bo Bcc: evil@example.com X-Injected: yes,');
    const row = await eventually(
      () =>
        ctx.services.db.kysely
          .selectFrom('mail_outbox')
          .select(['attempts', 'sent_at', 'last_error'])
          .where('to_address', '=', 'bo@example.org')
          .where('sent_at', 'is not', null)
          .executeTakeFirst(),
      "Bo's mail recorded as sent",
    );
    expect(row.attempts).toBe(2);
    expect(row.sent_at).not.toBeNull();
  });
});
