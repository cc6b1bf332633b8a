ALTER TABLE `hub_sources` ADD `document` text;--> statement-breakpoint
ALTER TABLE `hub_tools` ADD `operation` text;