ALTER TABLE `learners` ADD `token_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `messages` ADD `stopped` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `messages` ADD `superseded_by` text;