-- The failed-payment mail goes out once per failed invoice (issue 21 point 12, docs/decisions/030-billing-states-on-the-page.md):
-- the webhook claims the invoice's row by setting this column (null → now) after its transaction commits.
ALTER TABLE "billing_payments" ADD COLUMN "failure_mailed_at" timestamp with time zone;
