ALTER TABLE "email_outbox" ALTER COLUMN "text_body" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "sealed_body" "bytea";--> statement-breakpoint
-- Issue 27: the bodies of messages already sent or given up held signing links and codes in
-- clear; they are not needed any more. Rows still queued keep theirs until sent, then are wiped.
UPDATE "email_outbox" SET "text_body" = NULL, "html_body" = NULL WHERE "status" <> 'queued';--> statement-breakpoint
-- Codes were stored as an unkeyed SHA-256, which 10^6 tries reverse: they are retired (read as
-- expired; the signee asks for a new one, stored as an HMAC under the server's key).
UPDATE "signing_requests" SET "otp_hash" = 'retired-at-upgrade' WHERE "otp_hash" IS NOT NULL AND "otp_hash" NOT LIKE 'hmac1:%';
