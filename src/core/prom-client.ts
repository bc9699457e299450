// prom-client and what it pulls in are some eighty modules, a fifth of a CLI command's start-up,
// and only a server that serves /metrics uses them: they are loaded on first use.
import { createRequire } from 'node:module';

export type PromClient = typeof import('prom-client');

let loaded: PromClient | undefined;

export function promClient(): PromClient {
  return (loaded ??= createRequire(import.meta.url)('prom-client') as PromClient);
}
