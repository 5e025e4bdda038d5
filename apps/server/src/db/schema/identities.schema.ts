import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.schema';

/** The social sign-in providers (spec 000 §1): Google, Naver, Kakao. */
export const SOCIAL_PROVIDERS = ['google', 'naver', 'kakao'] as const;
export type SocialProviderName = (typeof SOCIAL_PROVIDERS)[number];

/**
 * A social identity linked to an account (issue 14, decision 021): the provider's stable subject (Google
 * `sub`, Naver `response.id`, Kakao `id`), the e-mail the provider reported at the last sign-in and
 * whether the provider vouches for it. One identity per (provider, subject) in the whole service, and
 * at most one per provider per account.
 */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: SOCIAL_PROVIDERS }).notNull(),
    subject: text('subject').notNull(),
    email: text('email'),
    emailVerified: boolean('email_verified').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('user_identities_provider_subject_uq').on(t.provider, t.subject),
    uniqueIndex('user_identities_user_provider_uq').on(t.userId, t.provider),
    check('user_identities_provider_valid', sql`${t.provider} in ('google','naver','kakao')`),
  ],
);

export type UserIdentityRow = typeof userIdentities.$inferSelect;
