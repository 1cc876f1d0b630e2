/** Base URL used when none is given: the wildfire service's default local address. */
export const DEFAULT_BASE_URL = 'http://localhost:8002';
