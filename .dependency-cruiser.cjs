/**
 * Layer rules for src/ (see CONTRIBUTING.md, "Layers"):
 * routes/ → services/ → domain/ + repositories/ → db/; presenters/ turn rows into API shapes.
 * `npm run lint` runs this (through scripts/check-layers.mjs, which adds the check that no two folders
 * of src/ import each other); a rule broken by new code fails the build.
 */
const DB_DRIVERS = '^node_modules/(kysely|pg|better-sqlite3)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No module depends on itself through others: cycles make load order and layering accidental.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'domain/ holds pure rules: it imports only domain/ (no packages, no Node built-ins, no types from other layers).',
      from: { path: '^src/domain/' },
      to: { pathNot: '^src/domain/' },
    },
    {
      name: 'inner-layers-never-import-http',
      severity: 'error',
      comment: 'services/ and domain/ know nothing of HTTP: they raise domain errors that http/ maps to statuses.',
      from: { path: '^src/(services|domain)/' },
      to: { path: '^src/(http|routes|plugins)/' },
    },
    {
      name: 'only-repositories-touch-the-database-driver',
      severity: 'error',
      comment: 'SQL and Kysely live in repositories/ and db/ only (migrations included).',
      from: { pathNot: '^src/(repositories|db)/' },
      to: { path: DB_DRIVERS },
    },
    {
      name: 'http-never-imports-routes',
      severity: 'error',
      comment: 'http/ holds the cross-cutting HTTP machinery; routes build on it, never the other way round.',
      from: { path: '^src/http/' },
      to: { path: '^src/routes/' },
    },
    {
      name: 'presenters-are-pure-shapes',
      severity: 'error',
      comment: 'Presenters turn rows into API shapes: they never fetch (repositories/) or orchestrate (services/).',
      from: { path: '^src/presenters/' },
      to: { path: '^src/(repositories|services|db)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'routes-go-through-services',
      severity: 'error',
      comment:
        'Handlers call services; queries, transactions and the database are reached through them. Not even types: routes are ' +
        'given RouteServices (app/services.ts), which holds neither the repositories nor the database handle.',
      from: { path: '^src/routes/' },
      to: { path: '^src/(repositories|db)/' },
    },
    {
      name: 'cli-goes-through-services',
      severity: 'error',
      comment: 'CLI commands call services, like routes do.',
      from: { path: '^src/cli/' },
      to: { path: '^src/repositories/', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|test|bench)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
