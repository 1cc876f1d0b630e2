export * from './keys';
export * from './header';
export * from './scopes';
export * from './cidr';
export * from './rate-limiter';
export * from './last-used';
export * from './outbound-address';
