// Members' sessions, kept in the database so that every instance knows them and signing out
// ends one everywhere. The cookie carries a random session id; the database only its SHA-256.
import { createHash, randomBytes } from 'node:crypto';
import { signInDiff, userTarget } from '../audit/domain/index.js';
import { type NetworkProfile, signInRefusedFor } from './domain.js';
import type { SessionsRepository } from './sessions.repository.js';
import type { Deps } from '../../app/deps.js';

import type { Member } from '../../core/web/pages.js';
export type { Member };

/** A session found for a request: its member and what its CSRF tokens are made from. */
export interface ActiveSession {
  member: Member;
  /** SHA-256 of the session id, to end it. */
  idHash: string;
  csrfSecret: string;
}

export const SESSION_IDLE_MS = 30 * 86_400_000;
/** A used session's last_seen_at is written at most this often (not on every page). */
const TOUCH_EVERY_MS = 5 * 60_000;
/** A sign-in must come back from the network within this. */
export const LOGIN_STATE_MS = 10 * 60_000;

export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

export type LoginProblem = 'unknown' | 'expired' | 'other-browser';

export class SessionsService {
  constructor(private readonly deps: Deps<'writer' | 'repos' | 'clock'>) {}

  /** A write of the sessions' own rows, as every write: one transaction through the writer. */
  private writes<T>(fn: (sessions: SessionsRepository) => Promise<T>): Promise<T> {
    return this.deps.writer.write((w) => fn(w.repos.sessions));
  }

  /** The secret cookies are signed with: the configured one, else the one generated at first start. */
  async cookieSecret(configured: string | null): Promise<string> {
    if (configured !== null) return configured;
    return this.writes((sessions) => sessions.settingOrInsert('session_secret', randomToken(48)));
  }

  /**
   * The session of a cookie's id, or null: ended when idle for 30 days or when the member may no longer
   * sign in. `touched`: its use was recorded now (the cookie is renewed).
   */
  async lookUp(sessionId: string): Promise<{ session: ActiveSession; touched: boolean } | null> {
    const idHash = sha256(sessionId);
    const row = await this.deps.repos.sessions.find(idHash);
    if (row === undefined) return null;
    const now = this.deps.clock();
    if (now - row.last_seen_at >= SESSION_IDLE_MS || signInRefusedFor(row.rating) !== null) {
      await this.writes((sessions) => sessions.delete(idHash));
      return null;
    }
    const touched = now - row.last_seen_at >= TOUCH_EVERY_MS;
    if (touched) await this.writes((sessions) => sessions.touch(idHash, now));
    const firstName = row.first_name ?? '';
    const lastName = row.last_name ?? '';
    const member: Member = {
      cid: row.user_id,
      firstName,
      lastName,
      name: `${firstName} ${lastName}`.trim() || String(row.user_id),
      rating: row.rating,
      staff: Boolean(Number(row.holds_role)),
      look: row.look === 'light' || row.look === 'dark' ? row.look : 'device',
    };
    return { session: { idHash, csrfSecret: row.csrf_secret, member }, touched };
  }

  /** Ends a session on every instance. */
  end(idHash: string): Promise<void> {
    return this.writes((sessions) => sessions.delete(idHash));
  }

  /** Keeps a sign-in under way; the browser gets `browserToken` in a cookie, the network `state`. */
  async beginLogin(codeVerifier: string, next: string): Promise<{ state: string; browserToken: string }> {
    const state = randomToken();
    const browserToken = randomToken();
    const now = this.deps.clock();
    await this.writes((sessions) =>
      sessions.saveLoginState(
        { state_hash: sha256(state), browser_hash: sha256(browserToken), code_verifier: codeVerifier, next, created_at: now },
        now - LOGIN_STATE_MS,
      ),
    );
    return { state, browserToken };
  }

  /** Consumes (once) the sign-in a callback's state belongs to, if it is this browser's and recent. */
  async consumeLogin(
    state: string,
    browserToken: string | null,
  ): Promise<{ ok: true; codeVerifier: string; next: string } | { ok: false; problem: LoginProblem }> {
    const now = this.deps.clock();
    const row = await this.writes((sessions) => sessions.consumeLoginState(sha256(state)));
    if (row === undefined) return { ok: false, problem: 'unknown' };
    if (now - row.created_at > LOGIN_STATE_MS) return { ok: false, problem: 'expired' };
    if (browserToken === null || sha256(browserToken) !== row.browser_hash) return { ok: false, problem: 'other-browser' };
    return { ok: true, codeVerifier: row.code_verifier, next: row.next };
  }

  /** Creates or updates the member from the profile, audits it and opens a session in one transaction; returns the session id. */
  async signIn(profile: NetworkProfile): Promise<string> {
    const sessionId = randomToken();
    const at = await this.deps.writer.write(async (w) => {
      const { at } = w;
      const sessions = w.repos.sessions;
      const before = await sessions.profileOf(profile.cid);
      await sessions.upsertSignedInUser(profile, at);
      const name = `${profile.firstName} ${profile.lastName}`;
      const after = {
        first_name: profile.firstName,
        last_name: profile.lastName,
        rating: profile.rating,
        region: profile.region,
        division: profile.division,
        subdivision: profile.subdivision,
      };
      await w.audit({ kind: 'member', cid: profile.cid, name }, [
        { action: 'member.sign_in', target: userTarget(profile.cid), ...signInDiff(before, after) },
      ]);
      await sessions.insertSession({
        id_hash: sha256(sessionId),
        user_id: profile.cid,
        csrf_secret: randomToken(24),
        created_at: at,
        last_seen_at: at,
      });
      return at;
    });
    // Sessions nobody used for 30 days are refused when they come back; this removes the ones
    // that never do (a sign-in is rare enough to carry it, and the index makes it cheap).
    await this.writes((sessions) => sessions.deleteIdle(at - SESSION_IDLE_MS));
    return sessionId;
  }
}
