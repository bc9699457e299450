// What every service is built from: one object, made once by the composition root (index.ts). A
// service names the part it uses (`Deps<'writer' | 'repos'>`), so a test builds it from just that.
import type { Config } from '../config.js';
import type { Clock } from '../core/domain/time.js';
import type { ReadRepositories } from './repositories.js';
import type { HttpClient } from '../core/http-client.js';
import type { Writer } from '../core/write.js';

export interface ServiceDeps {
  config: Config;
  clock: Clock;
  /** Every change: one transaction, with its events, audit entries and mail (write.ts). */
  writer: Writer;
  /** The queries; their changes are a Write's alone (`w.repos`). */
  repos: ReadRepositories;
  /** Several queries read as of one moment: one snapshot of the database. */
  snapshot<T>(read: (repos: ReadRepositories) => Promise<T>): Promise<T>;
  /** Every request to another service. */
  http: HttpClient;
}

/** The part of ServiceDeps a service is built from. */
export type Deps<K extends keyof ServiceDeps> = Pick<ServiceDeps, K>;
