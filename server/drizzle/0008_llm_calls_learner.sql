ALTER TABLE `llm_calls` ADD `learner_id` text;--> statement-breakpoint
-- Calls recorded before the column existed belong to their session's learner; those of sessions
-- already deleted stay without one.
UPDATE `llm_calls` SET `learner_id` = (SELECT `learner_id` FROM `sessions` WHERE `sessions`.`id` = `llm_calls`.`session_id`) WHERE `learner_id` IS NULL AND `session_id` IS NOT NULL;--> statement-breakpoint
CREATE INDEX `llm_calls_learner_created_idx` ON `llm_calls` (`learner_id`,`created_at`);
