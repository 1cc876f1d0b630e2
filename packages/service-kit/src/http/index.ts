export * from './create-app';
export * from './route';
export * from './openapi';
export * from './docs';
export * from './escape-html';
export * from './listen';
export * from './content-disposition';
export * from './security-headers';
