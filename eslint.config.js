// Type-aware lint for a service full of async database code: the rules that matter most here are the
// ones that need type information (no-floating-promises, no-misused-promises, await-thenable).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Writes only through a Write (src/core/write.ts): a repository is made by its one factory,
// src/app/repositories.ts, never ad hoc on a connection or transaction beside `w.repos`.
const ONE_REPOSITORY_FACTORY = [
  {
    selector: 'CallExpression[callee.name=/^[a-z][A-Za-z]*Repository$/]',
    message: 'Repositories are made only in src/app/repositories.ts: read through `repos`, change through `w.repos`.',
  },
  {
    selector: "CallExpression[callee.name='createRepositories']",
    message: "The repositories with their changes are a Write's (`w.repos`); read through readRepositories.",
  },
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'data/', 'packages/*/node_modules/'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', '*.cjs', 'scripts/*.mjs', 'packages/*/*.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // With noUncheckedIndexedAccess on, `rows[0]!` after a length or lookup check is the idiom; banning
      // `!` would push the code to `as` casts or dead runtime checks, which hide more than they catch.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // `(x) => reply.send(x)` and `() => resolve()` shorthands are how Fastify and Node callbacks read;
      // the rule flags style, not bugs (floating and misused promises are still caught).
      '@typescript-eslint/no-confusing-void-expression': 'off',
      // Fastify plugins and route handlers are `async` by contract (FastifyPluginAsync, promise-returning
      // handlers) even when their body awaits nothing.
      '@typescript-eslint/require-await': 'off',
      // Input validation refuses control characters on purpose; those regular expressions name them.
      'no-control-regex': 'off',
      // Template literals with numbers (ports, counts, ids) are everywhere in messages and SQL-free logs;
      // numbers and booleans stringify predictably. Objects and nullish values are still refused.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // `_`-prefixed parameters and destructured leftovers are deliberately unused (omit-by-destructuring).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Writes only through a Write (src/core/write.ts): a repository is made by its one factory,
    // src/app/repositories.ts, never ad hoc on a connection or transaction beside `w.repos`.
    files: ['**/*.ts'],
    ignores: ['src/app/repositories.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...ONE_REPOSITORY_FACTORY],
    },
  },
  {
    // One naming rule for services: a `*.service.ts` exports its service as a class named for what it
    // serves, ending in `Service` (BookingsService, TrainingRecordsService); its errors end in `Error`.
    files: ['src/features/**/*.service.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...ONE_REPOSITORY_FACTORY,
        {
          selector: 'ExportNamedDeclaration > ClassDeclaration[id.name!=/(Service|Error)$/]',
          message: 'A service class is named for what it serves and ends in `Service` (CONTRIBUTING.md, "Where code goes").',
        },
      ],
    },
  },
  {
    // Migrations are written against `Kysely<any>` (Kysely's documented pattern): a migration must
    // keep compiling after the schema type moves on, so it cannot be typed by today's schema.
    files: ['src/core/db/migrations/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  {
    // A page route's guard is its scope's one hook (src/app/scopes/members.ts, src/features/staff/staff.routes.ts,
    // src/app/scopes/public.ts):
    // a route with a guard of its own reads as if the others needed none, and one that forgets it is open.
    files: ['src/features/**/{member,staff,people,schedule,member-calendar,sign-in,demo}.routes.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...ONE_REPOSITORY_FACTORY,
        {
          selector: 'Property[key.name=/^(onRequest|preParsing|preValidation|preHandler)$/]',
          message: "Page routes are guarded by their scope's hook, not their own: register the route in its scope (CONTRIBUTING.md).",
        },
      ],
    },
  },
  {
    // Tests poke at untyped JSON responses (`await res.json()` is `any` by design: the test asserts its
    // shape), so the no-unsafe-* family would flag every assertion without making any test stronger.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // `res.json<T>()`-style helpers and `as` on parsed bodies state what the test expects to read.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  prettier,
);
