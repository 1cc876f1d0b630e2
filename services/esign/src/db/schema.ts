// Every table of the esign database, collected for drizzle and drizzle-kit.
export * from '../keys/tables';
export * from '../mail/tables';
