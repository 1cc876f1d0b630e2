import { asc } from 'drizzle-orm';
import type { WildfireDb } from '../db';
import { adminLog } from './tables';

/** The only code that touches admin_log: it appends, and reads back in order. */
export function createAdminLogRepository(db: WildfireDb) {
  return {
    async append(entry: typeof adminLog.$inferInsert): Promise<void> {
      await db.insert(adminLog).values(entry);
    },

    entries: () => db.select().from(adminLog).orderBy(asc(adminLog.id)),
  };
}

export type AdminLogRepository = ReturnType<typeof createAdminLogRepository>;
