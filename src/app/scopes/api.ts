// The API scope: bearer keys, the rate limit, CORS on public GETs and JSON errors (the
// application's own handler) for every route of the API (docs/api.md).
import type { FastifyPluginAsync } from 'fastify';
import { apiKeysPlugin } from '../../features/api-keys/index.js';
import { registerScope, type ScopeOptions } from './index.js';

const apiRoutes: FastifyPluginAsync<ScopeOptions> = async (api, { services, extra }) => {
  await api.register(apiKeysPlugin, { keys: services.keys, rateLimit: services.config.rateLimit });
  await registerScope(api, 'api', services, extra);
};

export default apiRoutes;
