-- Issue 25 (decision 041): prices in won beside dollars, receipts and billing mails.
-- The amounts of billing_payments are in the currency's minor unit (cents; won for KRW): the columns are
-- renamed from *_cents and every existing row is USD. The failed-payment mail's claim moves from
-- billing_payments.failure_mailed_at to billing_mails (one claim table for every billing mail).
CREATE TABLE "billing_mails" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"event_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_checkouts" ADD COLUMN "currency" text DEFAULT 'usd' NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_payments" RENAME COLUMN "amount_cents" TO "amount_minor";--> statement-breakpoint
ALTER TABLE "billing_payments" RENAME COLUMN "refunded_cents" TO "refunded_minor";--> statement-breakpoint
ALTER TABLE "billing_payments" ADD COLUMN "currency" text DEFAULT 'usd' NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_payments" ADD COLUMN "method" text;--> statement-breakpoint
ALTER TABLE "billing_payments" ADD COLUMN "receipt_url" text;--> statement-breakpoint
ALTER TABLE "billing_payments" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
UPDATE "billing_payments" SET "refunded_at" = "updated_at" WHERE "refunded_minor" > 0;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "currency" text DEFAULT 'usd' NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_mails" ADD CONSTRAINT "billing_mails_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_mails_event_uq" ON "billing_mails" USING btree ("kind","event_key");--> statement-breakpoint
CREATE INDEX "billing_mails_user_idx" ON "billing_mails" USING btree ("user_id");--> statement-breakpoint
INSERT INTO "billing_mails" ("user_id", "kind", "event_key", "created_at")
	SELECT "user_id", 'renewal_failed', 'invoice:' || "provider" || ':' || "provider_id", "failure_mailed_at" FROM "billing_payments" WHERE "failure_mailed_at" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_payments" DROP COLUMN "failure_mailed_at";
