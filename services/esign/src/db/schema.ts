// Every table of the esign database, collected for drizzle and drizzle-kit.
export * from '../keys/tables';
export * from '../mail/tables';
export * from '../documents/tables';
export * from '../signing-requests/tables';
export * from '../audit/tables';
export * from '../webhooks/tables';
export * from '../admin/tables';
export * from '../metering/tables';
export * from '../branding/tables';
export * from '../storage/tables';
export * from '../signatures/tables';
export * from '../tenant-settings/tables';
