CREATE TABLE "aemet_observed_days" (
	"date" date PRIMARY KEY NOT NULL,
	"ingested_at" timestamp with time zone NOT NULL,
	"stations" integer NOT NULL,
	"municipalities" integer NOT NULL,
	"without_station" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "aemet_station_hours" (
	"idema" text NOT NULL,
	"fint" timestamp with time zone NOT NULL,
	"ta" double precision,
	"hr" double precision,
	"vv" double precision,
	"prec" double precision,
	"lat" double precision,
	"lon" double precision,
	"alt" double precision,
	CONSTRAINT "aemet_station_hours_idema_fint_pk" PRIMARY KEY("idema","fint")
);
--> statement-breakpoint
CREATE TABLE "aemet_stations" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"lat" double precision NOT NULL,
	"lon" double precision NOT NULL,
	"altitude_m" double precision NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reading_provenance" (
	"municipio_id" text NOT NULL,
	"date" date NOT NULL,
	"provenance" jsonb NOT NULL,
	CONSTRAINT "reading_provenance_municipio_id_date_pk" PRIMARY KEY("municipio_id","date")
);
--> statement-breakpoint
CREATE TABLE "forecast_days" (
	"municipio_id" text NOT NULL,
	"date" date NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"issued_on" date NOT NULL,
	"lead_days" integer NOT NULL,
	"temp" double precision NOT NULL,
	"rh" double precision NOT NULL,
	"ws" double precision NOT NULL,
	"prec" double precision NOT NULL,
	"prec_from" text NOT NULL,
	"ffmc" double precision NOT NULL,
	"dmc" double precision NOT NULL,
	"dc" double precision NOT NULL,
	"isi" double precision NOT NULL,
	"bui" double precision NOT NULL,
	"fwi" double precision NOT NULL,
	"dsr" double precision NOT NULL,
	CONSTRAINT "forecast_days_municipio_id_date_pk" PRIMARY KEY("municipio_id","date")
);
--> statement-breakpoint
CREATE TABLE "forecast_runs" (
	"issued_on" date PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"total" integer NOT NULL,
	"done" integer NOT NULL,
	"cursor" text
);
