-- Renewal reminders and dormant accounts (terms §7 and §14, docs/decisions/027-renewal-reminders-and-dormant-accounts.md).
ALTER TABLE "users" ADD COLUMN "last_login_at" timestamp with time zone;
--> statement-breakpoint
-- Existing accounts: their newest session's last use counts as their last sign-in, else their creation.
UPDATE "users" SET "last_login_at" = greatest("created_at", (SELECT max(s."last_seen_at") FROM "sessions" s WHERE s."user_id" = "users"."id"));
--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "last_login_at" SET DEFAULT now();
--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "last_login_at" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "dormancy_notice_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "dormancy_notice_sent_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "dormant_at" timestamp with time zone;
--> statement-breakpoint
CREATE INDEX "users_last_login_idx" ON "users" USING btree ("last_login_at") WHERE "dormant_at" IS NULL AND "deleted_at" IS NULL;
--> statement-breakpoint
CREATE TABLE "renewal_reminders" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"threshold_days" integer NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "renewal_reminders_threshold_valid" CHECK ("renewal_reminders"."threshold_days" in (7, 3, 1))
);
--> statement-breakpoint
ALTER TABLE "renewal_reminders" ADD CONSTRAINT "renewal_reminders_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "renewal_reminders" ADD CONSTRAINT "renewal_reminders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "renewal_reminders_uq" ON "renewal_reminders" USING btree ("subscription_id","period_end","threshold_days");
--> statement-breakpoint
CREATE INDEX "renewal_reminders_user_idx" ON "renewal_reminders" USING btree ("user_id");
