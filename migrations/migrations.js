import journal from './meta/_journal.json';
import m0000 from './0000_init.sql';
import m0001 from './0001_journal_append_only.sql';
import m0002 from './0002_reviews.sql';
import m0003 from './0003_pending_call_binding.sql';
import m0004 from './0004_page_access.sql';
import m0005 from './0005_source_drafts.sql';
import m0006 from './0006_openapi_sources.sql';
import m0007 from './0007_refresh_leases.sql';
import m0008 from './0008_draft_asks.sql';
import m0009 from './0009_skills.sql';
import m0010 from './0010_result_handles.sql';
import m0011 from './0011_profiles.sql';
import m0012 from './0012_skill_files.sql';
import m0013 from './0013_search_documents.sql';
import m0014 from './0014_source_history.sql';
import m0015 from './0015_push_devices.sql';

  export default {
    journal,
    migrations: {
      m0000,
m0001,
m0002,
m0003,
m0004,
m0005,
m0006,
m0007,
m0008,
m0009,
m0010,
m0011,
m0012,
m0013,
m0014,
m0015
    }
  }
  