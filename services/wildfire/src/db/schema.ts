// Every table of the wildfire database, collected for drizzle and drizzle-kit.
export * from '../tokens/tables';
export * from '../municipalities/tables';
export * from '../readings/tables';
export * from '../ecosystem/tables';
export * from '../rate-limits/tables';
export * from '../decisions/tables';
export * from '../reports/tables';
export * from '../seasons/tables';
export * from '../storage/tables';
export * from '../admin-log/tables';
export * from '../aemet/tables';
export * from '../forecast/tables';
export * from '../alerts/tables';
