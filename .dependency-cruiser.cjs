// Dependency rules of the repository, checked in CI (`npm run check:deps`). Imports resolve through package
// exports with the "@mcpengine/source" condition, so a workspace import lands on the TypeScript entry it names.
const ENGINE_ENTRIES = [
  'index.ts',
  'protocol/index.ts',
  'schema/index.ts',
  'server/index.ts',
  'client/index.ts',
  'transports/stdio/index.ts',
  'transports/memory/index.ts',
  'transports/http/index.ts',
  'auth/index.ts',
  'apps/index.ts',
  'apps/protocol.ts',
].map((entry) => `packages/mcpengine/src/${entry.replace('.', '\\.')}`);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment:
        'No import cycles, type-only ones included: a cycle means two modules are one concept or a type sits in the wrong module.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'engine-depends-on-nothing',
      severity: 'error',
      comment: 'The engine library has zero runtime dependencies: Node built-ins and its own files only.',
      // Tests and benchmarks (`*.bench.ts`, run by vitest bench against Ajv) are neither built nor shipped.
      from: {
        path: '^packages/mcpengine/src/',
        pathNot: '\\.(test|bench)\\.ts$|^packages/mcpengine/src/test/',
      },
      to: { dependencyTypesNot: ['core', 'local', 'type-only'], pathNot: '^packages/mcpengine/src/' },
    },
    {
      name: 'engine-node-io-in-adapters-only',
      severity: 'error',
      comment:
        'Only the stdio and Node HTTP adapters touch node:http and node:stream; the rest of the engine is runtime-neutral.',
      from: {
        path: '^packages/mcpengine/src/',
        pathNot: [
          '^packages/mcpengine/src/transports/stdio/',
          '^packages/mcpengine/src/transports/http/node',
          // The OAuth client's loopback redirect listener is itself a Node adapter (a local HTTP server).
          '^packages/mcpengine/src/auth/client/loopback\\.ts$',
          '\\.test\\.ts$',
          '^packages/mcpengine/src/test/',
        ],
      },
      to: { dependencyTypes: ['core'], path: '^(node:)?(http|https|http2|stream|net)$' },
    },
    {
      name: 'engine-http-handler-does-not-import-the-node-adapter',
      severity: 'error',
      comment:
        'The web-standard HTTP server consumes its request seam (server-request.ts); the Node adapter (node*.ts) depends on it, never the reverse. Only the entry point re-exports the adapter.',
      from: {
        path: '^packages/mcpengine/src/transports/http/',
        pathNot: ['^packages/mcpengine/src/transports/http/(node[^/]*|index)\\.ts$', '\\.test\\.ts$'],
      },
      to: { path: '^packages/mcpengine/src/transports/http/node[^/]*\\.ts$' },
    },
    {
      name: 'engine-protocol-is-the-bottom-layer',
      severity: 'error',
      comment: 'protocol/ (types, revisions, codec) imports no server, client, transport or auth code.',
      from: { path: '^packages/mcpengine/src/protocol/', pathNot: '\\.test\\.ts$' },
      to: { path: '^packages/mcpengine/src/(server|client|transports|auth)/' },
    },
    {
      name: 'public-exports-only',
      severity: 'error',
      comment: 'Everything outside the engine uses its public subpath exports, never its internal files.',
      from: { pathNot: '^packages/mcpengine/' },
      to: { path: '^packages/mcpengine/', pathNot: ENGINE_ENTRIES.map((entry) => `^${entry}$`) },
    },
    ...[
      ['^(packages|servers|clients)/([^/]+)/', '^$1/$2/'],
      ['^examples/', '^examples/'],
      ['^test/', '^test/'],
    ].map(([from, own]) => ({
      name: 'no-relative-imports-across-packages',
      severity: 'error',
      comment: 'A workspace reaches another only through its package name (and so its declared exports).',
      from: { path: from },
      to: { dependencyTypes: ['local'], dependencyTypesNot: ['aliased-workspace'], pathNot: own },
    })),
    {
      name: 'declared-dependencies',
      severity: 'error',
      comment:
        'Shipped code imports only what its package.json declares (the published CLI must not lean on root devDependencies).',
      from: {
        path: '^(packages|servers|clients)/[^/]+/src/',
        pathNot: ['\\.(test|bench)\\.ts$', '/src/test/'],
      },
      // An optional peer (vitest for the runner's Vitest API, prettier for the catalog extractor) counts as
      // declared: dependency-cruiser tags it npm-peer and npm-no-pkg at once.
      to: {
        path: 'node_modules/',
        dependencyTypes: ['npm-no-pkg', 'npm-unknown', 'npm-dev'],
        dependencyTypesNot: ['npm', 'npm-peer', 'npm-optional'],
      },
    },
    {
      name: 'resolvable',
      severity: 'error',
      comment: 'Every import resolves.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Our build output and declaration files are left out; imports INTO node_modules are kept (not followed:
    // doNotFollow), or the declared-dependencies rule could never see an npm package.
    exclude: {
      path: [
        '^(packages|servers|clients)/[^/]+/(dist|coverage)/',
        '^(examples/)?(dist|coverage)/',
        '^(packages|servers|clients|examples|test|scripts)/.*[.]d[.]ts$',
      ],
    },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['@mcpengine/source', 'import', 'types', 'default'],
      extensions: ['.ts', '.js', '.mjs', '.json'],
      mainFields: ['module', 'main', 'types'],
    },
    moduleSystems: ['es6'],
  },
};
