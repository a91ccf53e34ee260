-- Sessions written before `type_state` existed keep their state in the legacy columns: copy it
-- into `type_state` (the shape core/storage/session-type-state.ts validates), then drop them.
UPDATE `sessions` SET `type_state` = json_object(
  'type', 'recall',
  'mode', `mode`,
  'rabbitholeTopic', `rabbithole_topic`,
  'probeIndex', `probe_index`,
  'probeAttempts', `probe_attempts`,
  'allPoints', CASE WHEN json_extract(`config`, '$.allPoints') = 1 THEN json('true') ELSE json('false') END
) WHERE `type_state` IS NULL AND `type` = 'recall';--> statement-breakpoint
UPDATE `sessions` SET `type_state` = json_set(`config`, '$.type', `type`) WHERE `type_state` IS NULL AND `type` <> 'recall';--> statement-breakpoint
ALTER TABLE `sessions` DROP COLUMN `mode`;--> statement-breakpoint
ALTER TABLE `sessions` DROP COLUMN `rabbithole_topic`;--> statement-breakpoint
ALTER TABLE `sessions` DROP COLUMN `config`;--> statement-breakpoint
ALTER TABLE `sessions` DROP COLUMN `probe_index`;--> statement-breakpoint
ALTER TABLE `sessions` DROP COLUMN `probe_attempts`;