CREATE TABLE "affiliate_clicks" (
	"id" serial PRIMARY KEY NOT NULL,
	"sharer_id" integer NOT NULL,
	"campaign" text,
	"ip_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "affiliate_codes" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "affiliate_referrals" (
	"referred_id" integer PRIMARY KEY NOT NULL,
	"sharer_id" integer NOT NULL,
	"click_id" integer,
	"campaign" text,
	"eligible" boolean NOT NULL,
	"ineligible_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "affiliate_referrals_not_self" CHECK ("affiliate_referrals"."referred_id" <> "affiliate_referrals"."sharer_id")
);
--> statement-breakpoint
CREATE TABLE "affiliate_rewards" (
	"id" serial PRIMARY KEY NOT NULL,
	"payment_id" integer NOT NULL,
	"sharer_id" integer NOT NULL,
	"referred_id" integer NOT NULL,
	"credits" integer NOT NULL,
	"reversed_credits" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "credit_ledger" DROP CONSTRAINT "credit_ledger_bucket_valid";--> statement-breakpoint
ALTER TABLE "affiliate_clicks" ADD CONSTRAINT "affiliate_clicks_sharer_id_users_id_fk" FOREIGN KEY ("sharer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "affiliate_codes" ADD CONSTRAINT "affiliate_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "affiliate_referrals" ADD CONSTRAINT "affiliate_referrals_referred_id_users_id_fk" FOREIGN KEY ("referred_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "affiliate_referrals" ADD CONSTRAINT "affiliate_referrals_sharer_id_users_id_fk" FOREIGN KEY ("sharer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "affiliate_rewards" ADD CONSTRAINT "affiliate_rewards_sharer_id_users_id_fk" FOREIGN KEY ("sharer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "affiliate_rewards" ADD CONSTRAINT "affiliate_rewards_referred_id_users_id_fk" FOREIGN KEY ("referred_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "affiliate_clicks_sharer_idx" ON "affiliate_clicks" USING btree ("sharer_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "affiliate_codes_code_uq" ON "affiliate_codes" USING btree ("code");--> statement-breakpoint
CREATE INDEX "affiliate_referrals_sharer_idx" ON "affiliate_referrals" USING btree ("sharer_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "affiliate_rewards_payment_uq" ON "affiliate_rewards" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "affiliate_rewards_sharer_idx" ON "affiliate_rewards" USING btree ("sharer_id","created_at");--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_bucket_valid" CHECK ("credit_ledger"."bucket" in ('one_time','bonus','subscription'));