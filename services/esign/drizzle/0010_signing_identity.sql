CREATE TABLE "signing_identity" (
	"name" text PRIMARY KEY NOT NULL,
	"p12_encrypted" "bytea" NOT NULL,
	"certificate_sha256" text NOT NULL,
	"origin" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
