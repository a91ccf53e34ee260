CREATE TABLE "fleet_instances" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"heartbeat_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_commands" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"session_id" text COLLATE "C" NOT NULL,
	"target" text COLLATE "C" NOT NULL,
	"frame" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"session_id" text COLLATE "C" NOT NULL,
	"target" text COLLATE "C",
	"event" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_leases" (
	"session_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"owner" text COLLATE "C" NOT NULL,
	"epoch" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_presence" (
	"listener_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"session_id" text COLLATE "C" NOT NULL,
	"instance_id" text COLLATE "C" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "session_leases" ADD CONSTRAINT "session_leases_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_commands_session_idx" ON "session_commands" USING btree ("session_id","id");--> statement-breakpoint
CREATE INDEX "session_events_session_idx" ON "session_events" USING btree ("session_id","id");--> statement-breakpoint
CREATE INDEX "session_events_created_idx" ON "session_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "session_presence_session_idx" ON "session_presence" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "session_presence_instance_idx" ON "session_presence" USING btree ("instance_id");