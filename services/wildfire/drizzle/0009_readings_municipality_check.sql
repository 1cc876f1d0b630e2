ALTER TABLE "readings" DROP CONSTRAINT "readings_municipio_id_municipalities_ine_code_fk";
--> statement-breakpoint
-- The other half of the dropped foreign key: a municipality that has readings cannot be
-- deleted nor re-coded (same error code, 23503, as the foreign key gave). Weather ingestion,
-- the only writer of readings, checks and locks the file's municipalities itself.
CREATE FUNCTION "municipality_keeps_its_readings"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "readings" WHERE "municipio_id" = OLD."ine_code") THEN
    RAISE EXCEPTION 'update or delete on table "municipalities" would orphan the readings of municipality %', OLD."ine_code"
      USING ERRCODE = 'foreign_key_violation', DETAIL = format('Key (ine_code)=(%s) is still referenced from table "readings".', OLD."ine_code");
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "municipalities_delete_keeps_readings" BEFORE DELETE ON "municipalities"
  FOR EACH ROW EXECUTE FUNCTION "municipality_keeps_its_readings"();
--> statement-breakpoint
CREATE TRIGGER "municipalities_recode_keeps_readings" BEFORE UPDATE OF "ine_code" ON "municipalities"
  FOR EACH ROW WHEN (OLD."ine_code" IS DISTINCT FROM NEW."ine_code") EXECUTE FUNCTION "municipality_keeps_its_readings"();
