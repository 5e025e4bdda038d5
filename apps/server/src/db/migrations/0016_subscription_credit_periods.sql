-- One subscription at a time, subscription credits per period (issue 21 points 2 and 5,
-- docs/decisions/029-one-subscription-and-credit-periods.md).
CREATE TABLE "subscription_credit_periods" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"subscription_ref" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"granted" integer DEFAULT 0 NOT NULL,
	"remaining" integer DEFAULT 0 NOT NULL,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscription_credit_periods_remaining_nonneg" CHECK ("subscription_credit_periods"."remaining" >= 0),
	CONSTRAINT "subscription_credit_periods_ended_empty" CHECK ("subscription_credit_periods"."ended_at" IS NULL OR "subscription_credit_periods"."remaining" = 0)
);
--> statement-breakpoint
ALTER TABLE "subscription_credit_periods" ADD CONSTRAINT "subscription_credit_periods_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_credit_periods_ref_start_uq" ON "subscription_credit_periods" USING btree ("subscription_ref","period_start");
--> statement-breakpoint
CREATE INDEX "subscription_credit_periods_open_idx" ON "subscription_credit_periods" USING btree ("user_id","period_start") WHERE "ended_at" IS NULL;
--> statement-breakpoint
-- Existing subscription balances become one open period of the user's newest live subscription
-- (or of a `legacy:<user>` period when none is recorded), so the new invariant holds from the start:
-- the open periods' remaining credits sum to users.subscription_credits.
INSERT INTO "subscription_credit_periods" ("user_id", "subscription_ref", "period_start", "granted", "remaining")
SELECT u."id",
       coalesce(s."provider" || ':' || s."provider_subscription_id", 'legacy:' || u."id"),
       coalesce(s."credited_period_start", now()),
       u."subscription_credits",
       u."subscription_credits"
  FROM "users" u
  LEFT JOIN LATERAL (
    SELECT * FROM "subscriptions" x
     WHERE x."user_id" = u."id" AND x."status" NOT IN ('expired', 'incomplete_expired')
     ORDER BY x."provider_created_at" DESC, x."id" DESC LIMIT 1
  ) s ON true
 WHERE u."subscription_credits" > 0;
--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "period_id" integer;
--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_period_id_fk" FOREIGN KEY ("period_id") REFERENCES "public"."subscription_credit_periods"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- A spend that takes from two periods writes two subscription rows under one key.
DROP INDEX "credit_ledger_idem_bucket_uq";
--> statement-breakpoint
CREATE UNIQUE INDEX "credit_ledger_idem_bucket_period_uq" ON "credit_ledger" USING btree ("idempotency_key","bucket",coalesce("period_id", 0));
--> statement-breakpoint
CREATE INDEX "credit_ledger_period_idx" ON "credit_ledger" USING btree ("period_id") WHERE "period_id" IS NOT NULL;
--> statement-breakpoint
-- A subscription the provider created while the user already had a live one (a second tab, a race):
-- never granted, cancelled and refunded at the provider.
ALTER TABLE "subscriptions" ADD COLUMN "refused_at" timestamp with time zone;
--> statement-breakpoint
-- The hosted checkout's URL, so a repeated request for the same plan gets the open checkout back.
ALTER TABLE "billing_checkouts" ADD COLUMN "checkout_url" text;
--> statement-breakpoint
CREATE INDEX "billing_checkouts_pending_idx" ON "billing_checkouts" USING btree ("user_id","created_at") WHERE "status" = 'pending' AND "kind" = 'plan';
