/** One jest run for the whole monorepo: every package and service, TypeScript via ts-jest. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/infra'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }],
  },
  moduleNameMapper: {
    '^@firma-riesgo/(errors|auth|pdf-core|service-kit|wildfire-client)$': '<rootDir>/packages/$1/src',
    '^@firma-riesgo/(errors|auth|pdf-core|service-kit|wildfire-client)/(.*)$': '<rootDir>/packages/$1/src/$2',
  },
  maxWorkers: 2,
  testTimeout: 60000,
};
