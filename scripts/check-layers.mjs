// Reads dependency-cruiser's JSON result on stdin, prints its rule violations, and adds the one check
// dependency-cruiser's rules cannot express: no two folders of src/ depend on each other, directly or
// through other folders (a folder-level cycle can exist without any module-level one). Each feature
// (src/features/<name>/) counts as one folder.
// Type-only imports of the composition root (src/app/) are not edges: every feature names its types.
// Usage: depcruise src --config .dependency-cruiser.cjs -T json | node scripts/check-layers.mjs
import { format } from 'dependency-cruiser';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const result = JSON.parse(Buffer.concat(chunks).toString('utf8'));

const reported = await format(result, { outputType: 'err' });
process.stdout.write(reported.output);
let failed = reported.exitCode > 0;

const folderOf = (path) => /^src\/(features\/[^/]+(?=\/)|[^/]+(?=\/))/.exec(path)?.[1];
const edges = new Map();
for (const module of result.modules) {
  const from = folderOf(module.source);
  if (!from) continue;
  for (const dep of module.dependencies) {
    // The composition root's types (Write, ServiceDeps, RouteServices in src/app/) are named by every
    // feature it composes: those type-only edges are the composition itself, not a cycle.
    if (dep.resolved.startsWith('src/app/') && dep.dependencyTypes.includes('type-only') && !module.source.startsWith('src/app/')) continue;
    const to = folderOf(dep.resolved);
    if (!to || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from).has(to)) edges.get(from).set(to, `${module.source} → ${dep.resolved}`);
  }
}

// Tarjan's strongly connected components: every component of more than one folder is a cycle.
let index = 0;
const indexOf = new Map();
const lowOf = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
function visit(v) {
  indexOf.set(v, index);
  lowOf.set(v, index++);
  stack.push(v);
  onStack.add(v);
  for (const w of edges.get(v)?.keys() ?? []) {
    if (!indexOf.has(w)) {
      visit(w);
      lowOf.set(v, Math.min(lowOf.get(v), lowOf.get(w)));
    } else if (onStack.has(w)) lowOf.set(v, Math.min(lowOf.get(v), indexOf.get(w)));
  }
  if (lowOf.get(v) !== indexOf.get(v)) return;
  const component = [];
  let w;
  do {
    w = stack.pop();
    onStack.delete(w);
    component.push(w);
  } while (w !== v);
  if (component.length > 1) cycles.push(component.sort());
}
for (const folder of edges.keys()) if (!indexOf.has(folder)) visit(folder);

for (const component of cycles) {
  failed = true;
  const members = new Set(component);
  process.stdout.write(`\n  error no-folder-cycles: ${component.map((f) => `src/${f}/`).join(' ↔ ')}\n`);
  for (const from of component)
    for (const [to, example] of edges.get(from) ?? []) if (members.has(to)) process.stdout.write(`    ${example}\n`);
}
if (!failed) process.stdout.write('✔ no folder cycles in src/\n');
process.exit(failed ? 1 : 0);
