import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Sector's own folder: the nearest one above this module holding a package.json, whether it runs from
 * src/, dist/ or dist/cli/. The built server and CLI are single files (scripts/bundle.mjs), so no path
 * may be written relative to the module that needs it.
 */
export function projectRoot(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = here; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.dirname(here);
  }
}
