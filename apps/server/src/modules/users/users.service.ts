import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users, type UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';

/** Lower-cased, trimmed e-mail: the unique key of an account. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserById(db: DbOrTx, id: number): Promise<UserRow | undefined> {
  return (await db.select().from(users).where(eq(users.id, id)))[0];
}

export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  return (await db.select().from(users).where(eq(users.emailNormalized, normalizeEmail(email))))[0];
}

/** @throws AppError NOT_FOUND */
export async function getUser(db: DbOrTx, id: number): Promise<UserRow> {
  const u = await findUserById(db, id);
  if (!u) throw new AppError('NOT_FOUND');
  return u;
}
