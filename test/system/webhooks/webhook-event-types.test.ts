// `webhook:add --events` takes the staff administration's and training's event types (contract
// §17, §18) and refuses an unknown one with one line, writing nothing.
import { describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../../support/context.js';
import { runCli } from '../../support/processes.js';

const TYPES = [
  'endorsement.created',
  'endorsement.expired',
  'role.granted',
  'position.deleted',
  'training.created',
  'training.updated',
  'training.closed',
  'training.report',
  'training.examination',
];

describe('webhook:add --events with the new event types', () => {
  it('subscribes to endorsement, role, position and training events, and refuses an unknown type', () => {
    const env = { DATABASE_URL: freshDatabaseUrl() };
    const added = runCli(['webhook:add', '--url', 'http://127.0.0.1:9/hook', '--events', TYPES.join(','), '--json'], env);
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout).events).toEqual(TYPES);
    const refused = runCli(['webhook:add', '--url', 'http://127.0.0.1:9/other', '--events', 'training.created,training.exploded'], env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain('training.exploded');
    const listed = JSON.parse(runCli(['webhook:list', '--json'], env).stdout) as unknown[];
    expect(listed).toHaveLength(1);
  });
});
