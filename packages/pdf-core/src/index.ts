export * from './engines';
export * from './engine-errors';
export * from './engine-runner';
export * from './temp-dir';
export * from './discovery';
export * from './signing';
export * from './tools';
export * from './images';
