ALTER TABLE "session_commands" ADD COLUMN "taken_by" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "session_commands" ADD COLUMN "taken_epoch" bigint;