/**
 * Dependency rules for src/ (see CONTRIBUTING.md, "Where code goes"): a folder per feature under
 * src/features/, the machinery without feature knowledge under src/core/, the composition root under
 * src/app/. Inside a feature the role shows in the file name (`*.routes.ts`, `*.service.ts`,
 * `*.repository.ts`, `*.view.ts` or views/, `*.worker.ts`, `*.cli.ts`, domain). `npm run lint` runs
 * this (through scripts/check-layers.mjs, which adds the folder-level cycle check); a rule broken by
 * new code fails the build.
 */
const DB_DRIVERS = '^node_modules/(kysely|pg|better-sqlite3)/';
const DOMAIN = '^src/(core/domain/|features/[^/]+/(domain/|domain\\.ts$|[^/]+\\.domain\\.ts$))';
const REPOSITORY = '(\\.repository\\.ts$|/predicates\\.ts$|^src/core/db/)';
const VIEW = '(\\.view\\.ts$|/views/)';
const SERVICE = '(\\.service\\.ts$|\\.worker\\.ts$)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No module depends on itself through others at run time: cycles make load order and layering accidental. ' +
        "Type-only imports do not count: features name the composition root's types (Write, ServiceDeps, RouteServices).",
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'machinery-knows-no-feature',
      severity: 'error',
      comment:
        'src/core/ is the machinery (database, Write, workers, HTTP client, web layer): it imports no feature, not the ' +
        'composition root and no entry point, not even their types; features plug into it.',
      from: { path: '^src/core/' },
      to: { path: '^src/(features|app|cli)/|^src/server\\.ts$' },
    },
    {
      name: 'machinery-reads-config-types-only',
      severity: 'error',
      comment: 'The machinery is given its settings; it may name the Config type, never load it.',
      from: { path: '^src/core/' },
      to: { path: '^src/config\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'Domain modules hold pure rules: they import only domain modules (no packages, no Node built-ins, no other roles).',
      from: { path: DOMAIN },
      to: { pathNot: DOMAIN },
    },
    {
      name: 'only-repositories-touch-the-database-driver',
      severity: 'error',
      comment: 'SQL and Kysely live in repositories (`*.repository.ts`, their shared `predicates.ts`) and src/core/db/ only.',
      from: { pathNot: REPOSITORY },
      to: { path: DB_DRIVERS },
    },
    {
      name: 'services-never-import-views-or-routes',
      severity: 'error',
      comment: 'Services and workers return data; routes turn it into pages and responses with the views.',
      from: { path: SERVICE },
      to: { path: `${VIEW}|\\.routes\\.ts$` },
    },
    {
      name: 'views-are-pure-shapes',
      severity: 'error',
      comment: 'Views turn rows into API shapes and pages: they never fetch (repositories) or orchestrate (services).',
      from: { path: VIEW },
      to: { path: `${REPOSITORY}|${SERVICE}`, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'routes-go-through-services',
      severity: 'error',
      comment:
        'Handlers call services; queries, transactions and the database are reached through them. Not even types: routes are ' +
        'given RouteServices (src/app/services.ts), which holds neither the repositories nor the database handle.',
      from: { path: '\\.routes\\.ts$' },
      to: { path: REPOSITORY },
    },
    {
      name: 'cli-goes-through-services',
      severity: 'error',
      comment: "CLI commands call services, like routes do (opening and migrating a database is the machinery's).",
      from: { path: '(\\.cli\\.ts$|^src/cli/)' },
      to: { path: '(\\.repository\\.ts$|/predicates\\.ts$)', dependencyTypesNot: ['type-only'] },
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
