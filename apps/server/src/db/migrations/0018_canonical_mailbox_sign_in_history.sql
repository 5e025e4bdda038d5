-- Canonical mailbox for the welcome grant, sign-in history (issue 21 points 3 and 4, docs/decisions/031-canonical-mailbox-signin-history-redirects.md).
CREATE TABLE "sign_in_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"ip_hash" text NOT NULL,
	"device_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sign_in_events_kind_valid" CHECK ("sign_in_events"."kind" in ('signup','login','social','undo'))
);
--> statement-breakpoint
ALTER TABLE "sign_in_events" ADD CONSTRAINT "sign_in_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "sign_in_events_user_idx" ON "sign_in_events" USING btree ("user_id","created_at");
--> statement-breakpoint
CREATE INDEX "sign_in_events_created_idx" ON "sign_in_events" USING btree ("created_at");
--> statement-breakpoint
-- welcome-mailbox-backfill: every live account whose address had the welcome credits (a welcome_grants row
-- or a 'welcome' ledger entry) claims its canonical mailbox too, so its aliases get nothing. The expression
-- is canonicalMailbox (apps/server/src/lib/mailbox.ts) in SQL: +tag removed (not a leading +); for
-- gmail.com/googlemail.com dots removed and the domain gmail.com. Purged accounts keep their old key (the
-- plain address hash), which still blocks that address (grantWelcomeCreditsOnce checks it).
INSERT INTO "welcome_grants" ("email_hash", "user_id", "granted_at")
  SELECT encode(sha256(convert_to(
           CASE WHEN c."domain" IN ('gmail.com', 'googlemail.com')
                THEN coalesce(nullif(replace(c."local", '.', ''), ''), c."local") || '@gmail.com'
                ELSE c."local" || '@' || c."domain" END, 'UTF8')), 'hex'),
         c."id", c."created_at"
  FROM (
    SELECT u."id", u."created_at",
           CASE WHEN strpos(p."local", '+') > 1 THEN substr(p."local", 1, strpos(p."local", '+') - 1) ELSE p."local" END AS "local",
           p."domain"
    FROM "users" u
    CROSS JOIN LATERAL (SELECT substring(u."email_normalized" FROM '^(.*)@[^@]*$') AS "local",
                               substring(u."email_normalized" FROM '@([^@]*)$') AS "domain") p
    WHERE u."deleted_at" IS NULL AND p."domain" IS NOT NULL
      AND (EXISTS (SELECT 1 FROM "welcome_grants" g WHERE g."user_id" = u."id")
           OR EXISTS (SELECT 1 FROM "credit_ledger" l WHERE l."user_id" = u."id" AND l."reason" = 'welcome'))
  ) c
  ON CONFLICT DO NOTHING;
