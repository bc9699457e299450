// Sign-in's configuration (contract §14): both client settings or neither, the network's address
// https: except on loopback, PUBLIC_URL's default, SESSION_SECRET's length.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.js';

const CLIENT = { CONNECT_CLIENT_ID: '123', CONNECT_CLIENT_SECRET: 'secret' };
const problems = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
};

describe('sign-in configuration', () => {
  it('is off without client id and secret, on with both', () => {
    expect(loadConfig({}).signIn).toBeNull();
    expect(loadConfig(CLIENT).signIn).toEqual({
      connectUrl: 'https://auth.vatsim.net',
      clientId: '123',
      clientSecret: 'secret',
      timeoutMs: 10_000,
    });
  });

  it('refuses one without the other', () => {
    expect(problems({ CONNECT_CLIENT_ID: '123' })).toEqual([
      'CONNECT_CLIENT_ID is set but CONNECT_CLIENT_SECRET is not: set both to let members sign in, or neither',
    ]);
    expect(problems({ CONNECT_CLIENT_SECRET: 's' })[0]).toContain('CONNECT_CLIENT_SECRET is set but CONNECT_CLIENT_ID is not');
  });

  it.each(['https://auth-dev.vatsim.net', 'http://127.0.0.1:9000', 'http://127.8.9.10', 'http://[::1]:9000', 'http://localhost:9000'])(
    'takes CONNECT_URL %s',
    (url) => {
      expect(loadConfig({ ...CLIENT, CONNECT_URL: `${url}/` }).signIn?.connectUrl).toBe(url);
    },
  );

  it.each([
    'http://auth.example.org',
    'http://128.0.0.1',
    'http://localhost.evil.example',
    'ftp://auth.example.org',
    'https://auth.example.org/?x=1',
    'not a url',
  ])('refuses CONNECT_URL %s', (url) => {
    expect(problems({ ...CLIENT, CONNECT_URL: url })[0]).toMatch(/^CONNECT_URL must be an https: URL/);
  });

  it('defaults PUBLIC_URL to http://HOST:PORT and drops a trailing slash', () => {
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '9000' }).publicUrl).toBe('http://0.0.0.0:9000');
    expect(loadConfig({ PUBLIC_URL: 'https://bookings.example.org/' }).publicUrl).toBe('https://bookings.example.org');
    expect(problems({ PUBLIC_URL: 'bookings.example.org' })[0]).toMatch(/^PUBLIC_URL must be/);
    expect(problems({ PUBLIC_URL: 'https://example.org/sector' })[0]).toMatch(/^PUBLIC_URL must be .* without a path/);
  });

  it('wants a SESSION_SECRET of 32 characters or more, or none', () => {
    expect(loadConfig({}).sessionSecret).toBeNull();
    expect(loadConfig({ SESSION_SECRET: 'x'.repeat(32) }).sessionSecret).toBe('x'.repeat(32));
    expect(problems({ SESSION_SECRET: 'short' })[0]).toMatch(/^SESSION_SECRET must be at least 32 characters/);
  });
});
