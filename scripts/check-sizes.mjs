// Keeps the project readable in an afternoon: no module of src/ over 320 lines (one job per file),
// and a README short enough to read first (the two commands, a tour and links; details in docs/).
// Usage: node scripts/check-sizes.mjs
import fs from 'node:fs';
import path from 'node:path';

const MAX_LINES = 320;
const MAX_README_BYTES = 10 * 1024;

const problems = [];
const walk = (dir) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(file);
    else if (file.endsWith('.ts')) {
      const lines = fs.readFileSync(file, 'utf8').split('\n').length - 1;
      if (lines > MAX_LINES) problems.push(`${file}: ${lines} lines (at most ${MAX_LINES}: split it by job)`);
    }
  }
};
walk('src');
const readme = fs.statSync('README.md').size;
if (readme > MAX_README_BYTES) problems.push(`README.md: ${readme} bytes (at most ${MAX_README_BYTES}: move details to docs/)`);

for (const p of problems) process.stderr.write(`${p}\n`);
if (problems.length > 0) process.exit(1);
process.stdout.write(`✔ src/ modules at most ${MAX_LINES} lines, README.md at most ${MAX_README_BYTES} bytes\n`);
