-- Tenant erasure deletes the tenant row; erased documents and their anonymised requests keep
-- the old tenant id (their hashes and audit trail stay), so those two keys lose their foreign key.
ALTER TABLE "documents" DROP CONSTRAINT "documents_tenant_id_tenants_id_fk";
--> statement-breakpoint
ALTER TABLE "signing_requests" DROP CONSTRAINT "signing_requests_tenant_id_tenants_id_fk";
