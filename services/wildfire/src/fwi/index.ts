/** Canadian Forest Fire Weather Index System: components, daily series and the `wildfire fwi` CSV command. */
export * from './components';
export * from './day-length';
export * from './series';
export * from './csv-cli';
export * from './overwinter';
export * from './overwinter-csv';
export * from './winter';
export * from './carry';
export { FWI_OUTPUT_COLUMNS, FwiInputError } from './csv-layout';
