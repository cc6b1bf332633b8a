CREATE TABLE `hub_skill_files` (
	`skill` text NOT NULL,
	`path` text NOT NULL,
	`data` text NOT NULL,
	PRIMARY KEY(`skill`, `path`)
);
