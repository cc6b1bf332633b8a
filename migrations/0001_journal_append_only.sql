-- The journal is append-only (spec: Security, "Resume never repeats a call").
-- An entry and its outcome are never updated; they may be deleted only once their run is gone (retention).
CREATE TRIGGER `hub_journal_no_update` BEFORE UPDATE ON `hub_journal`
BEGIN SELECT RAISE(ABORT, 'the journal is append-only: an entry is never updated'); END;
--> statement-breakpoint
CREATE TRIGGER `hub_journal_no_delete` BEFORE DELETE ON `hub_journal`
WHEN EXISTS (SELECT 1 FROM `hub_runs` WHERE `id` = OLD.`run_id`)
BEGIN SELECT RAISE(ABORT, 'the journal is append-only: an entry outlives its run'); END;
--> statement-breakpoint
CREATE TRIGGER `hub_journal_outcomes_no_update` BEFORE UPDATE ON `hub_journal_outcomes`
BEGIN SELECT RAISE(ABORT, 'the journal is append-only: an outcome is never updated'); END;
--> statement-breakpoint
CREATE TRIGGER `hub_journal_outcomes_no_delete` BEFORE DELETE ON `hub_journal_outcomes`
WHEN EXISTS (SELECT 1 FROM `hub_runs` WHERE `id` = OLD.`run_id`)
BEGIN SELECT RAISE(ABORT, 'the journal is append-only: an outcome outlives its run'); END;
--> statement-breakpoint
CREATE TRIGGER `hub_decisions_no_update` BEFORE UPDATE ON `hub_decisions`
BEGIN SELECT RAISE(ABORT, 'a decision is recorded once and never changed'); END;
