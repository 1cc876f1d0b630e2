CREATE TABLE "blob_chunks" (
	"version" uuid NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blob_chunks_version_seq_pk" PRIMARY KEY("version","seq")
);
--> statement-breakpoint
CREATE TABLE "blobs" (
	"key" text PRIMARY KEY NOT NULL,
	"version" uuid NOT NULL,
	"size" bigint NOT NULL,
	"chunks" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "blobs_key_prefix_idx" ON "blobs" USING btree ("key" text_pattern_ops);