ALTER TABLE "uploads" ADD COLUMN "incoming_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "uploads_incoming_key_uq" ON "uploads" USING btree ("incoming_key");--> statement-breakpoint
CREATE INDEX "uploads_created_idx" ON "uploads" USING btree ("created_at");