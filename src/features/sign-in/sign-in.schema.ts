// What the sign-in pages take (src/features/sign-in/*.routes.ts), page forms of the atoms every page
// shares (src/core/web/form-atoms.ts). Unknown parameters are let through (the network's sign-in adds its own).
import { Type } from 'typebox';
import { Csrf, Field, IdField, pageForm } from '../../core/web/form-atoms.js';

const hidden = { hide: true } as const;

export const signInPage = { ...hidden, querystring: pageForm({ next: Field() }) };
export const signInCallback = { ...hidden, querystring: pageForm({ code: Field(), state: Field(), error: Field() }) };
/** npm run demo: signing in as a demo person (./demo.routes.ts); its token is checked by its route. */
export const demoSignInForm = { ...hidden, body: pageForm({ cid: IdField(), next: Field(), _csrf: Csrf }) };
export const signOutForm = { ...hidden, body: Type.Optional(pageForm({ _csrf: Csrf })) };
