// The build: compiles each program (the server, the CLI) from src/ into one file of dist/, joined with
// the modules of Kysely and TypeBox it imports. Node then reads one file at start instead of some 800,
// which halves the start of every process. Other packages stay in node_modules: several read files
// that lie beside them. Type-checking is not the build's work: `npm run typecheck` (and CI) does it.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// Kysely and TypeBox ship as about 260 and 370 small ES modules: the packages worth joining.
const joined = new Set(['kysely', 'typebox']);
const external = Object.keys(pkg.dependencies).filter((name) => !joined.has(name));

await build({
  entryPoints: {
    server: 'src/server.ts',
    'cli/index': 'src/cli/index.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  // Error classes and functions keep their names (an error's name is part of what the CLI prints).
  keepNames: true,
  // `node --enable-source-maps` maps stack traces back to src/.
  sourcemap: 'linked',
  logLevel: 'warning',
});
