CREATE TABLE `hub_connections` (
	`namespace` text NOT NULL,
	`name` text NOT NULL,
	`is_default` integer NOT NULL,
	`secrets` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`namespace`, `name`)
);
--> statement-breakpoint
CREATE TABLE `hub_decisions` (
	`id` text PRIMARY KEY NOT NULL,
	`pending_id` text NOT NULL,
	`run_id` text NOT NULL,
	`choice` text NOT NULL,
	`channel` text NOT NULL,
	`who` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hub_decisions_pending_id_unique` ON `hub_decisions` (`pending_id`);--> statement-breakpoint
CREATE INDEX `hub_decisions_run` ON `hub_decisions` (`run_id`);--> statement-breakpoint
CREATE TABLE `hub_journal` (
	`run_id` text NOT NULL,
	`seq` integer NOT NULL,
	`address` text NOT NULL,
	`connection` text,
	`args_digest` text NOT NULL,
	`decision` text NOT NULL,
	`started_at` integer NOT NULL,
	PRIMARY KEY(`run_id`, `seq`)
);
--> statement-breakpoint
CREATE TABLE `hub_journal_outcomes` (
	`run_id` text NOT NULL,
	`seq` integer NOT NULL,
	`outcome` text NOT NULL,
	`settled_at` integer NOT NULL,
	PRIMARY KEY(`run_id`, `seq`)
);
--> statement-breakpoint
CREATE TABLE `hub_manifests` (
	`namespace` text PRIMARY KEY NOT NULL,
	`fetched_at` integer NOT NULL,
	`server` text,
	`instructions` text
);
--> statement-breakpoint
CREATE TABLE `hub_meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `hub_pending_inputs` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`seq` integer NOT NULL,
	`kind` text NOT NULL,
	`address` text NOT NULL,
	`connection` text,
	`summary` text NOT NULL,
	`args_preview` text NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hub_pending_inputs_call` ON `hub_pending_inputs` (`run_id`,`seq`);--> statement-breakpoint
CREATE TABLE `hub_policy_rules` (
	`id` text PRIMARY KEY NOT NULL,
	`target_kind` text NOT NULL,
	`target` text NOT NULL,
	`connection` text,
	`effect` text NOT NULL,
	`contract` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `hub_policy_rules_target` ON `hub_policy_rules` (`target`);--> statement-breakpoint
CREATE TABLE `hub_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`profile` text NOT NULL,
	`status` text NOT NULL,
	`code` text NOT NULL,
	`seed` text NOT NULL,
	`clock_origin` integer NOT NULL,
	`attempts` integer NOT NULL,
	`result` text,
	`error` text,
	`logs` text NOT NULL,
	`notices` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `hub_runs_status` ON `hub_runs` (`status`,`updated_at`);--> statement-breakpoint
CREATE TABLE `hub_sources` (
	`namespace` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`command` text,
	`env` text,
	`consent` text,
	`url` text,
	`allowed_hosts` text,
	`added_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `hub_tools` (
	`address` text PRIMARY KEY NOT NULL,
	`namespace` text NOT NULL,
	`position` integer NOT NULL,
	`name` text NOT NULL,
	`title` text,
	`description` text,
	`input_schema` text NOT NULL,
	`output_schema` text,
	`annotations` text,
	`contract` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `hub_tools_namespace` ON `hub_tools` (`namespace`,`position`);