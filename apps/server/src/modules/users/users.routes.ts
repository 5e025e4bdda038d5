import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { UpdateProfileRequestSchema, UserSchema } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { users } from '../../db/schema';
import { userOf } from '../../lib/request-user';
import { announceUserChanged } from '../../lib/user-changes';
import { presentUser } from './users.presenter';

/** PATCH /api/users/me — the caller edits their own nickname (sign-up's rules for the name). */
export function usersRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.patch(
      '/api/users/me',
      { config: { access: 'user' }, schema: { tags: ['users'], body: UpdateProfileRequestSchema, response: { 200: UserSchema } } },
      async (req) => {
        const [row] = await ctx.database.db
          .update(users)
          .set({ nickname: req.body.nickname, updatedAt: new Date() })
          .where(eq(users.id, userOf(req).id))
          .returning();
        announceUserChanged(row!.id); // the session answer shows the nickname (decision 026)
        return presentUser(row!);
      },
    );
  };
}
