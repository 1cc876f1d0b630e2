// Every table of the wildfire database, collected for drizzle and drizzle-kit.
export * from '../tokens/tables';
