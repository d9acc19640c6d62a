/** Layer directions (docs/contributing.md, "Lint and layer rules"): domain depends on nothing of ours, libs never
 * on apps, the store and queue ports never on the application that uses them, and no cycles anywhere. */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'libs/domain holds the rules: only itself and Node core modules (tests may use the test runner).',
      severity: 'error',
      from: { path: '^libs/domain/', pathNot: ['\\.spec\\.ts$', '^libs/domain/src/testing/'] },
      to: { pathNot: '^libs/domain/', dependencyTypesNot: ['core'] },
    },
    {
      name: 'libs-not-apps',
      comment: 'Libraries are assembled by the apps, never the other way round.',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'ports-not-application',
      comment:
        'Event store, read models, jobs and blobs are ports and adapters the application uses; they do not use it.',
      severity: 'error',
      from: { path: '^libs/(read-models|event-store|jobs|blob-store)/' },
      to: { path: '^libs/application/' },
    },
    {
      name: 'apps-not-each-other',
      comment:
        'Each app is its own entry point; shared code lives in libs. Three exceptions: apps/host is the ' +
        'composition root every process assembles its adapters with, the single-process server ' +
        '(apps/api/src/service.ts) runs the worker in its process (and supplies the ' +
        "worker's webhook deliverer to the sandbox test send), and the API request DTOs are the " +
        'published contract other apps (the MCP server) describe their inputs with.',
      severity: 'error',
      from: { path: '^apps/([^/]+)/', pathNot: '^apps/api/src/service\\.ts$' },
      to: { path: '^apps/', pathNot: ['^apps/$1/', '^apps/host/', '^apps/api/src/.+\\.dto\\.ts$'] },
    },
    {
      name: 'application-uses-ports',
      comment:
        'The application names ports; which adapter serves them (SQLite, MongoDB, EventStoreDB, BullMQ) is ' +
        'chosen and built in apps/host. Tests may build adapters.',
      severity: 'error',
      from: { path: '^libs/application/', pathNot: '\\.spec\\.ts$' },
      to: {
        path: [
          '^libs/(event-store|jobs|read-models)/src/index\\.ts$',
          '^libs/(event-store|jobs|read-models)/src/(sqlite|mongodb|eventstoredb|bullmq)/',
          '^libs/sqlite/',
        ],
      },
    },
    {
      name: 'examples-public-api-only',
      comment:
        'The examples use the service over HTTP only, as an integrator does: of this repository they import ' +
        'only the client package (@payments-platform/client) and each other.',
      severity: 'error',
      from: { path: '^examples/' },
      to: { path: '^(apps|libs|packages|test)/', pathNot: '^packages/client/' },
    },
    {
      name: 'client-package-stands-alone',
      comment:
        'packages/client is published on its own: its sources import only themselves and npm packages ' +
        '(its tests may start the service).',
      severity: 'error',
      from: { path: '^packages/client/src/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^(apps|libs|test|scripts|examples)/' },
    },
    {
      name: 'controllers-ask-the-application',
      comment:
        "Controllers pass the API's criteria to the application's queries; how a list becomes a read-model " +
        "query (filters, indexes) is the application's business.",
      severity: 'error',
      from: { path: '^apps/api/src/.+\\.controller\\.ts$' },
      to: { path: '^libs/read-models/' },
    },
    {
      name: 'no-cycles',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'], conditionNames: ['types', 'import', 'node', 'default'] },
  },
};
