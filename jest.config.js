/**
 * One jest run for the whole monorepo (every package and service, TypeScript via ts-jest),
 * in two projects:
 * - `unit`: files named `*.unit.test.ts`. They need no Postgres, Redis, PDF engine, network
 *   or browser (fakes stand in for repositories: `services/esign/src/__tests__/fakes/`), and
 *   `scripts/jest-unit-guard.js` fails any of them that opens a socket or starts a process.
 *   `npm run test:unit` runs only this project.
 * - `integration`: every other `*.test.ts`, against the real components.
 * `npm test` runs both.
 */
const shared = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/infra'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }],
  },
  moduleNameMapper: {
    '^@firma-riesgo/(errors|auth|pdf-core|service-kit|webhooks|wildfire-client|esign-client)$': '<rootDir>/packages/$1/src',
    '^@firma-riesgo/(errors|auth|pdf-core|service-kit|webhooks|wildfire-client|esign-client)/(.*)$': '<rootDir>/packages/$1/src/$2',
  },
};

module.exports = {
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['**/*.unit.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '/dist/'],
      setupFilesAfterEnv: ['<rootDir>/scripts/jest-unit-guard.js'],
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['**/*.test.ts'],
      setupFiles: ['<rootDir>/scripts/jest-unit-guard-off.js'],
      testPathIgnorePatterns: ['/node_modules/', '/dist/', '\\.unit\\.test\\.ts$'],
    },
  ],
  maxWorkers: 2,
  testTimeout: 60000,
};
