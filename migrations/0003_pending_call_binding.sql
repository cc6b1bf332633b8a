DROP INDEX `hub_pending_inputs_call`;--> statement-breakpoint
ALTER TABLE `hub_pending_inputs` ADD `args_digest` text;--> statement-breakpoint
ALTER TABLE `hub_pending_inputs` ADD `contract` text;--> statement-breakpoint
ALTER TABLE `hub_pending_inputs` ADD `args` text;--> statement-breakpoint
CREATE INDEX `hub_pending_inputs_call` ON `hub_pending_inputs` (`run_id`,`seq`);--> statement-breakpoint
ALTER TABLE `hub_sources` ADD `cwd` text;