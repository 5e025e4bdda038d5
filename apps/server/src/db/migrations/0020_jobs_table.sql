-- The jobs table (issue 23 point 1, docs/decisions/034-jobs-table.md): `images` was already one row per
-- paid job; it becomes `jobs` in place (rows, ids and the sequence kept), with who started the job, its
-- batch, a typed failure code, `source` and `status` as checked enums, and the dead `attempts` dropped.
ALTER TABLE "images" RENAME TO "jobs";--> statement-breakpoint
ALTER SEQUENCE "images_id_seq" RENAME TO "jobs_id_seq";--> statement-breakpoint
ALTER TABLE "jobs" RENAME CONSTRAINT "images_pkey" TO "jobs_pkey";--> statement-breakpoint
ALTER TABLE "jobs" RENAME CONSTRAINT "images_user_id_users_id_fk" TO "jobs_user_id_users_id_fk";--> statement-breakpoint
ALTER INDEX "images_job_id_uq" RENAME TO "jobs_job_id_uq";--> statement-breakpoint
ALTER INDEX "images_user_source_idx" RENAME TO "jobs_user_source_idx";--> statement-breakpoint
ALTER INDEX "images_status_idx" RENAME TO "jobs_status_idx";--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "actor_kind" text DEFAULT 'user' NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "api_key_id" integer;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "batch_id" uuid;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "error_code" text;--> statement-breakpoint
-- Backfill, once: failures were stored as `CODE: detail` and parsed back by two presenters. The code
-- moves to `error_code` and `error` keeps the detail, so that both presenters answer old rows exactly as
-- before: a `recovered: …` row (the reaper's) is JOB_LOST; a `Code: …` prefix (not `Error`) is that code;
-- a bare `JOB_TIMEOUT` is JOB_TIMEOUT; a text about the heartbeat is JOB_LOST; anything else JOB_FAILED.
UPDATE "jobs" SET
	"error_code" = CASE
		WHEN "error" ~ '^recovered: ?' THEN 'JOB_LOST'
		WHEN "error" ~ '^[A-Za-z][A-Za-z0-9_.]*: ?' AND substring("error" from '^([A-Za-z][A-Za-z0-9_.]*):') <> 'Error'
			THEN substring("error" from '^([A-Za-z][A-Za-z0-9_.]*):')
		WHEN "error" = 'JOB_TIMEOUT' THEN 'JOB_TIMEOUT'
		WHEN "error" LIKE '%heartbeat%' THEN 'JOB_LOST'
		ELSE 'JOB_FAILED'
	END,
	"error" = CASE
		WHEN "error" ~ '^[A-Za-z][A-Za-z0-9_.]*: ?' AND substring("error" from '^([A-Za-z][A-Za-z0-9_.]*):') <> 'Error'
			THEN regexp_replace("error", '^[A-Za-z][A-Za-z0-9_.]*: ?', '')
		ELSE "error"
	END
WHERE "status" = 'failed';--> statement-breakpoint
ALTER TABLE "jobs" DROP COLUMN "attempts";--> statement-breakpoint
CREATE INDEX "jobs_batch_idx" ON "jobs" USING btree ("batch_id") WHERE "jobs"."batch_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_actor_kind_valid" CHECK ("jobs"."actor_kind" in ('user','api_key'));--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_api_key_actor" CHECK (("jobs"."actor_kind" = 'api_key') = ("jobs"."api_key_id" IS NOT NULL));--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_source_valid" CHECK ("jobs"."source" in ('upscale','product_try','clothes','kling','seedream','face_edit','consistency'));--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_status_valid" CHECK ("jobs"."status" in ('processing','completed','failed'));--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_error_code_when_failed" CHECK (("jobs"."status" = 'failed') = ("jobs"."error_code" IS NOT NULL));
