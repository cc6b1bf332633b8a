CREATE TABLE `hub_result_blob_chunks` (
	`handle` text NOT NULL,
	`position` integer NOT NULL,
	`text` text NOT NULL,
	PRIMARY KEY(`handle`, `position`)
);
--> statement-breakpoint
CREATE TABLE `hub_result_blobs` (
	`handle` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`bytes` integer NOT NULL,
	`media_type` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `hub_result_blobs_run` ON `hub_result_blobs` (`run_id`);