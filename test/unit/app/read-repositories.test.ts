// Writes only through a Write: services read through ReadRepositories, which has no change methods;
// the changes are on `Write.repos`. `npm run typecheck` fails if a @ts-expect-error line compiles.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ReadRepositories, Repositories } from '../../../src/app/repositories.js';
import type { ComposedServices } from '../../../src/app/services.js';
import type { Write } from '../../../src/app/deps.js';

describe('read-only repositories', () => {
  it('have the queries and none of the changes; a Write has both', () => {
    const change = (repos: ComposedServices['repos'], w: Write) => {
      void repos.bookings.list();
      void repos.roles.staffMember(1);
      // @ts-expect-error a booking is changed only inside a Write
      void repos.bookings.softDelete(1, 0);
      // @ts-expect-error an API key is revoked only inside a Write
      void repos.apiKeys.revoke('id', 0);
      // @ts-expect-error a lease is taken only inside a Write
      void repos.leases.take('name', 'owner', 0, 0, false);
      // @ts-expect-error the audit log is appended to only inside a Write
      void repos.audit.append([]);
      void w.repos.bookings.softDelete(1, 0);
      void w.repos.audit.append([]);
    };
    expect(typeof change).toBe('function');
    expectTypeOf<ComposedServices['repos']>().toEqualTypeOf<ReadRepositories>();
    expectTypeOf<Write['repos']>().toEqualTypeOf<Repositories>();
    expectTypeOf<ReadRepositories['roles']>().not.toHaveProperty('grant');
    expectTypeOf<ReadRepositories['endorsements']>().not.toHaveProperty('insert');
  });
});
