CREATE TABLE `hub_notifications` (
	`pending_id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`outcome` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `hub_notifications_at` ON `hub_notifications` (`at`);--> statement-breakpoint
CREATE TABLE `hub_push_devices` (
	`id` text PRIMARY KEY NOT NULL,
	`endpoint` text NOT NULL,
	`p256dh` text NOT NULL,
	`auth` text NOT NULL,
	`label` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hub_push_devices_endpoint_unique` ON `hub_push_devices` (`endpoint`);