import type { EsignDb } from '../db';
import { adminLog } from './tables';

/** The only code that touches admin_log: it appends. */
export function createAdminLogRepository(db: EsignDb) {
  return {
    async append(entry: typeof adminLog.$inferInsert): Promise<void> {
      await db.insert(adminLog).values(entry);
    },
  };
}

export type AdminLogRepository = ReturnType<typeof createAdminLogRepository>;
