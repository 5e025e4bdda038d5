ALTER TABLE "images" ALTER COLUMN "original_key" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "images" ALTER COLUMN "original_width" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "images" ALTER COLUMN "original_height" DROP NOT NULL;--> statement-breakpoint
-- rows made before the kernel were all upscale jobs
ALTER TABLE "images" ADD COLUMN "job_name" text NOT NULL DEFAULT 'upscale';--> statement-breakpoint
ALTER TABLE "images" ALTER COLUMN "job_name" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "request_hash" text;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "heartbeat_at" timestamp with time zone;