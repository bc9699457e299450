// The users list of the API (GET /api/users), with each member's relations.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { UsersService } from './users.service.js';
import usersRoutes from './users.routes.js';

function services(deps: ServiceDeps) {
  return { users: new UsersService(deps) };
}

export const users: Feature<ReturnType<typeof services>> = {
  services,
  routes: { api: [usersRoutes] },
};
