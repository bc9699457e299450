// Signing members in with the network's account, their sessions, and the demo's one-click sign-in.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { DemoSignInService } from './demo.service.js';
import { SessionsService, SignInService } from './sign-in.service.js';
import authRoutes from './sign-in.routes.js';

export { demoGuard } from './demo-guard.plugin.js';
export { default as memberSession } from './member-session.plugin.js';

function services(deps: ServiceDeps) {
  const { config } = deps;
  const sessions = new SessionsService(deps);
  return {
    /** Members' sessions (request.member on page routes). */
    sessions,
    /** Signing members in with the network's account; null when sign-in is off. */
    signIn: config.signIn ? new SignInService({ ...deps, signIn: config.signIn, sessions }) : null,
    /** `npm run demo` only: signing in as a demo person with one click. */
    demoSignIn: config.demo ? new DemoSignInService({ ...deps, sessions }) : null,
  };
}

export const signIn: Feature<ReturnType<typeof services>> = {
  services,
  routes: { publicPages: [authRoutes] },
};
