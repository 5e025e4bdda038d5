ALTER TABLE "images" ADD COLUMN "result_keys" jsonb;
