// The schedule page's stylesheet, script and icon, linked with a hash of their content in the URL
// (?v=…), so browsers may keep them for a year: a new version of a file is a new URL.
// src/core/web/assets.ts serves them.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../project-root.js';
import type { PageAssets } from '../../features/calendar/schedule-page.view.js';

/** public/ at the repository's root. */
export const PUBLIC_DIR = `${path.join(projectRoot(), 'public')}${path.sep}`;

const versioned = (file: string): string => {
  const hash = createHash('sha256')
    .update(fs.readFileSync(`${PUBLIC_DIR}${file}`))
    .digest('base64url')
    .slice(0, 16);
  return `/assets/${file}?v=${hash}`;
};

/** The assets' URLs, each with its content's hash; read once, at start. */
export function pageAssets(): PageAssets {
  return { css: versioned('schedule.css'), js: versioned('schedule.js'), icon: versioned('favicon.svg') };
}
