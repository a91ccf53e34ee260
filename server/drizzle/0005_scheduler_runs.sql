CREATE TABLE `scheduler_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`learner_id` text NOT NULL,
	`review_count` integer NOT NULL,
	`weights` text NOT NULL,
	`previous_weights` text,
	`log_loss` real NOT NULL,
	`rmse_bins` real NOT NULL,
	`previous_log_loss` real NOT NULL,
	`previous_rmse_bins` real NOT NULL,
	`kept` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`learner_id`) REFERENCES `learners`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `scheduler_runs_learner_idx` ON `scheduler_runs` (`learner_id`,`created_at`);