-- Unconfirmed rewrites (issue 21 point 15, docs/decisions/032-verified-callers-quotas-purge-rewrite.md): the
-- housekeeping sweep looks for completed rewrites the page never confirmed through POST /api/credit/use.
CREATE INDEX "ai_requests_unconfirmed_rewrite_idx" ON "ai_requests" USING btree ("finished_at") WHERE "kind" = 'rewrite' AND "status" = 'completed' AND "confirmed_at" IS NULL;
