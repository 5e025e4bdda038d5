-- Issue 23 point 2, decision 036-inline-metered-calls-and-ledger-reason-codes.md.
-- (1) The AI text calls' table becomes the kernel's record of inline metered calls: ai_requests → metered_calls,
--     kind → operation, plus the spend key, the caller's Idempotency-Key (scoped, hashed), the request's
--     fingerprint and the stored answer a replay returns.
-- (2) Ledger reasons become codes with typed parameters (packages/contracts ledger.ts): reason_code +
--     reason_params, backfilled from the sentences the ledger stored until now; the sentence column goes.
ALTER TABLE "ai_requests" RENAME TO "metered_calls";
--> statement-breakpoint
ALTER TABLE "metered_calls" RENAME COLUMN "kind" TO "operation";
--> statement-breakpoint
ALTER TABLE "metered_calls" RENAME CONSTRAINT "ai_requests_kind_check" TO "metered_calls_operation_check";
--> statement-breakpoint
ALTER TABLE "metered_calls" RENAME CONSTRAINT "ai_requests_status_check" TO "metered_calls_status_check";
--> statement-breakpoint
ALTER TABLE "metered_calls" RENAME CONSTRAINT "ai_requests_cost_check" TO "metered_calls_cost_check";
--> statement-breakpoint
ALTER TABLE "metered_calls" RENAME CONSTRAINT "ai_requests_user_id_users_id_fk" TO "metered_calls_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "metered_calls" RENAME CONSTRAINT "ai_requests_pkey" TO "metered_calls_pkey";
--> statement-breakpoint
ALTER INDEX "ai_requests_user_kind_idx" RENAME TO "metered_calls_user_operation_idx";
--> statement-breakpoint
ALTER INDEX "ai_requests_pending_idx" RENAME TO "metered_calls_pending_idx";
--> statement-breakpoint
ALTER INDEX "ai_requests_unconfirmed_rewrite_idx" RENAME TO "metered_calls_unconfirmed_rewrite_idx";
--> statement-breakpoint
ALTER TABLE "metered_calls" ADD COLUMN "spend_key" text;
--> statement-breakpoint
UPDATE "metered_calls" SET "spend_key" = 'ai:' || "id"::text;
--> statement-breakpoint
ALTER TABLE "metered_calls" ALTER COLUMN "spend_key" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "metered_calls" ADD COLUMN "idempotency_key" text;
--> statement-breakpoint
ALTER TABLE "metered_calls" ADD COLUMN "request_hash" text;
--> statement-breakpoint
ALTER TABLE "metered_calls" ADD COLUMN "result" jsonb;
--> statement-breakpoint
CREATE UNIQUE INDEX "metered_calls_idempotency_uq" ON "metered_calls" USING btree ("user_id", "operation", "idempotency_key") WHERE "idempotency_key" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "reason_code" text;
--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "reason_params" jsonb DEFAULT '{}'::jsonb NOT NULL;
--> statement-breakpoint
-- The old sentences → {code, ...params}; a sentence that matches nothing is kept as {code: legacy, text}.
CREATE FUNCTION "dewy_0021_ledger_reason"(k text, r text, key text) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  m text[];
  op text;
  inner_reason jsonb;
BEGIN
  r := btrim(r);
  IF k = 'grant' THEN
    IF r = 'welcome' THEN RETURN '{"code":"welcome"}'::jsonb; END IF;
    IF r = 'affiliate reward' THEN RETURN '{"code":"affiliate_reward"}'::jsonb; END IF;
    m := regexp_match(r, '^pack (\S+)$');
    IF m IS NOT NULL THEN RETURN jsonb_build_object('code', 'pack_purchase', 'pack', m[1]); END IF;
    m := regexp_match(r, '^upgrade ([a-z]+) *(→|->) *([a-z]+)$');
    IF m IS NOT NULL THEN RETURN jsonb_build_object('code', 'plan_upgrade', 'from', m[1], 'to', m[3]); END IF;
    m := regexp_match(r, '^(initial|renewal|upgrade|other) (\S+)$');
    IF m IS NOT NULL THEN RETURN jsonb_build_object('code', 'plan_period', 'invoice', m[1], 'plan', m[2]); END IF;
  ELSIF k = 'spend' THEN
    m := regexp_match(r, '^ai (chat|rewrite|auto_prompt|extract_prompt)$');
    IF m IS NOT NULL THEN RETURN jsonb_build_object('code', 'ai_call', 'operation', m[1]); END IF;
    IF r IN ('upscale', 'product_try', 'clothes', 'kling', 'seedream', 'face_edit', 'consistency') THEN
      RETURN jsonb_build_object('code', 'tool_job', 'source', r);
    END IF;
  ELSIF k = 'refund' THEN
    IF r = 'job failed' THEN RETURN '{"code":"job_refund"}'::jsonb; END IF;
    IF r = 'partial result' THEN RETURN '{"code":"job_partial_refund"}'::jsonb; END IF;
    IF r = 'ai rewrite never applied' THEN RETURN '{"code":"ai_call_refund","operation":"rewrite","error":"NOTHING_TO_CHARGE"}'::jsonb; END IF;
    m := regexp_match(r, '^ai failed: (\S+)$');
    IF m IS NOT NULL THEN
      SELECT c."operation" INTO op FROM "metered_calls" c WHERE key LIKE 'refund:%' AND c."spend_key" = substr(key, 8);
      IF op IS NULL THEN RETURN jsonb_build_object('code', 'ai_call_refund', 'error', m[1]); END IF;
      RETURN jsonb_build_object('code', 'ai_call_refund', 'operation', op, 'error', m[1]);
    END IF;
  ELSIF k = 'expire' THEN
    IF r = 'new subscription period' THEN RETURN '{"code":"period_expired"}'::jsonb; END IF;
    IF r = 'subscription ended' THEN RETURN '{"code":"subscription_ended"}'::jsonb; END IF;
    m := regexp_match(r, '^(.*) \(its subscription period has ended\)$');
    IF m IS NOT NULL THEN
      inner_reason := "dewy_0021_ledger_reason"('grant', m[1], key);
      IF inner_reason->>'code' = 'legacy' THEN inner_reason := "dewy_0021_ledger_reason"('refund', m[1], regexp_replace(key, ':expire$', '')); END IF;
      IF inner_reason->>'code' <> 'legacy' THEN RETURN jsonb_build_object('code', 'ended_period', 'of', inner_reason); END IF;
    END IF;
  ELSIF k = 'reclaim' THEN
    IF r = 'debt settlement' THEN RETURN '{"code":"debt_settlement"}'::jsonb; END IF;
    IF r LIKE 'affiliate reward reversed%' THEN RETURN '{"code":"affiliate_reward_reversed"}'::jsonb; END IF;
    m := regexp_match(r, '^refund of pack (\S+)$');
    IF m IS NOT NULL THEN RETURN jsonb_build_object('code', 'pack_refunded', 'pack', m[1]); END IF;
    m := regexp_match(r, '^refund of (initial|renewal|upgrade|other) invoice$');
    IF m IS NOT NULL THEN RETURN jsonb_build_object('code', 'invoice_refunded', 'invoice', m[1]); END IF;
  END IF;
  RETURN jsonb_build_object('code', 'legacy', 'text', r);
END;
$$;
--> statement-breakpoint
UPDATE "credit_ledger" l SET "reason_code" = x.reason->>'code', "reason_params" = x.reason - 'code'
  FROM (SELECT "id", "dewy_0021_ledger_reason"("kind", "reason", "idempotency_key") AS reason FROM "credit_ledger") x
 WHERE x."id" = l."id";
--> statement-breakpoint
DROP FUNCTION "dewy_0021_ledger_reason"(text, text, text);
--> statement-breakpoint
ALTER TABLE "credit_ledger" ALTER COLUMN "reason_code" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "credit_ledger" DROP COLUMN "reason";
