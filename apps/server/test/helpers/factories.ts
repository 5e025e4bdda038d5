import { randomBytes } from 'node:crypto';
import type { DbOrTx } from '../../src/db/client';
import { users, type UserRow } from '../../src/db/schema';

/** Inserts a user row directly (no password hashing: tests that log in use the auth service). */
export async function buildUser(db: DbOrTx, overrides: Partial<typeof users.$inferInsert> = {}): Promise<UserRow> {
  const email = overrides.email ?? `user-${randomBytes(4).toString('hex')}@example.com`;
  const rows = await db
    .insert(users)
    .values({ email, emailNormalized: email.toLowerCase(), nickname: 'Tester', passwordHash: 'x', ...overrides })
    .returning();
  return rows[0]!;
}
