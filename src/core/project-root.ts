import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Sector's folder: the nearest one above holding a package.json (from src/, dist/ or dist/cli/), as the
// built files are bundled and no path may be relative to a module.
export function projectRoot(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = here; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.dirname(here);
  }
}
