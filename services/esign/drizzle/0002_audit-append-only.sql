-- The audit trail is append-only: no deletes, and the only update is erasure replacing
-- ip, user agent and email with '[suprimido]' (every other column unchanged).
CREATE FUNCTION audit_events_append_only() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'audit_events is append-only: rows cannot be deleted';
  END IF;
  IF (NEW.id, NEW.document_id, NEW.request_id, NEW.tenant_id, NEW.kind, NEW.occurred_at, NEW.document_sha256, NEW.details::text)
     IS DISTINCT FROM (OLD.id, OLD.document_id, OLD.request_id, OLD.tenant_id, OLD.kind, OLD.occurred_at, OLD.document_sha256, OLD.details::text)
     OR (NEW.ip IS DISTINCT FROM OLD.ip AND NEW.ip IS DISTINCT FROM '[suprimido]')
     OR (NEW.user_agent IS DISTINCT FROM OLD.user_agent AND NEW.user_agent IS DISTINCT FROM '[suprimido]')
     OR (NEW.email IS DISTINCT FROM OLD.email AND NEW.email IS DISTINCT FROM '[suprimido]') THEN
    RAISE EXCEPTION 'audit_events is append-only: only erasure may replace ip, user_agent and email';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
