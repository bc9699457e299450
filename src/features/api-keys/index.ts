// API keys: their hashes, scopes and use (contract §3); the API scope's bearer check is its plugin.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { registerApiKeyCommands } from './api-keys.cli.js';
import { ApiKeyService } from './api-keys.service.js';
import { apiKeyUseWorker } from './use.worker.js';

export { default as apiKeysPlugin } from './api-keys.plugin.js';

function services(deps: ServiceDeps) {
  return { keys: new ApiKeyService(deps) };
}

export const apiKeys: Feature<ReturnType<typeof services>> = {
  services,
  workers: (_deps, { keys }) => [apiKeyUseWorker({ keys })],
  cli: [registerApiKeyCommands],
};
