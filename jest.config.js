/** Jest 30 in ESM mode; TypeScript compiled by SWC with legacy decorators and metadata (NestJS DI). */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/packages', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    // The package.json subpath imports (#domain/…) point at dist for Node; tests run the sources.
    '^#([a-z-]+)/(.*)\\.js$': '<rootDir>/libs/$1/src/$2',
    // The workspace package resolves to its build for Node; tests run its sources.
    '^@payments-platform/client$': '<rootDir>/packages/client/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          target: 'es2022',
          keepClassNames: true,
        },
        module: { type: 'es6' },
        sourceMaps: 'inline',
      },
    ],
  },
  // Webhooks received by a test's receivers must match the OpenAPI document (test/support/webhook-receiver.ts);
  // property tests draw their cases from one seed (test/support/property-seed.ts).
  setupFilesAfterEnv: ['<rootDir>/test/support/check-webhooks.ts', '<rootDir>/test/support/property-seed.ts'],
  testTimeout: 60000,
  maxWorkers: 2,
};
