CREATE TABLE "documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"filename" text NOT NULL,
	"title" text,
	"pages" integer NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finalise_claimed_at" timestamp with time zone,
	"finalised_at" timestamp with time zone,
	"final_sha256" text,
	"final_level" text,
	"final_tsa_time" timestamp with time zone,
	"erased_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "signing_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"document_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"signee_email" text NOT NULL,
	"signee_name" text,
	"message" text,
	"redirect_url" text,
	"locale" text DEFAULT 'es' NOT NULL,
	"token_hash" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"viewed_at" timestamp with time zone,
	"signed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"otp_hash" text,
	"otp_expires_at" timestamp with time zone,
	"otp_failed_attempts" integer DEFAULT 0 NOT NULL,
	"locked_at" timestamp with time zone,
	"signature_image_key" text,
	"has_signature_image" boolean DEFAULT false NOT NULL,
	"seal_status" text,
	"signature_level" text,
	"tsa_time" timestamp with time zone,
	"signed_sha256" text,
	"sealed_at" timestamp with time zone,
	"seal_error" text,
	CONSTRAINT "signing_requests_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"document_id" uuid NOT NULL,
	"request_id" uuid,
	"tenant_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text,
	"user_agent" text,
	"email" text,
	"document_sha256" text NOT NULL,
	"details" jsonb
);
--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "document_id" uuid;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "request_id" uuid;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "kind" text DEFAULT 'other' NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD CONSTRAINT "signing_requests_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD CONSTRAINT "signing_requests_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "documents_tenant_created_idx" ON "documents" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "signing_requests_document_idx" ON "signing_requests" USING btree ("document_id","created_at");--> statement-breakpoint
CREATE INDEX "signing_requests_tenant_idx" ON "signing_requests" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "audit_events_document_idx" ON "audit_events" USING btree ("document_id","id");--> statement-breakpoint
CREATE INDEX "email_outbox_document_idx" ON "email_outbox" USING btree ("document_id");