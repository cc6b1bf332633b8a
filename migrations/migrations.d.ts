/** Types for drizzle-kit's generated migrations.js (the SQL files bundled as text). */
import type { MigrationBundle } from '../engine/store/migrate.ts';

declare const bundle: MigrationBundle;
export default bundle;
