// The README's tour: after `npm start` and `npx sector seed:demo`, http://127.0.0.1:8080/ shows a
// populated schedule and the feed has the demo's bookings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../../support/context.js';
import { runCli, startServer, type ServerProcess } from '../../support/processes.js';

describe('the schedule of the demo division', () => {
  let server: ServerProcess;

  beforeAll(async () => {
    const databaseUrl = freshDatabaseUrl();
    server = await startServer({ DATABASE_URL: databaseUrl });
    // Seeded while the server runs, as in the tour: the page notices the commit of another process.
    const seeded = runCli(['seed:demo'], { DATABASE_URL: databaseUrl });
    expect(seeded.code, seeded.stderr).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await server.stop();
  });

  it('shows upcoming bookings on several days, and the feed has them', async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const rows = html.match(/<th scope="row"/g) ?? [];
    const days = html.match(/<h2 id="day-/g) ?? [];
    expect(rows.length).toBeGreaterThan(20);
    expect(days.length).toBeGreaterThan(5);
    expect(html).not.toContain('class="empty"');

    const feed = await (await fetch(`${server.url}/calendar/bookings.ics`)).text();
    expect((feed.match(/^BEGIN:VEVENT\r$/gm) ?? []).length).toBeGreaterThanOrEqual(rows.length);
  });
});
