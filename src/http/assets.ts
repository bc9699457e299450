// The schedule page's stylesheet and script, served from public/ under /assets/. Pages link them
// with a hash of their content in the URL (?v=…), so browsers may keep them for a year: a new
// version of a file is a new URL.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { PageAssets } from '../presenters/schedule-page.js';

/** public/ at the repository's root, from src/http (tsx) and dist/http (the build) alike. */
export const PUBLIC_DIR = fileURLToPath(new URL('../../public/', import.meta.url));

export const ASSET_MAX_AGE_SECONDS = 365 * 24 * 3600;

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

export async function registerAssets(app: FastifyInstance): Promise<void> {
  await app.register(fastifyStatic, {
    root: PUBLIC_DIR,
    prefix: '/assets/',
    // Swagger UI registers the plugin as well: this one keeps to its own routes.
    decorateReply: false,
    // One route per file, found at start: nothing else under /assets/ reaches the disk.
    wildcard: false,
    index: false,
    dotfiles: 'deny',
    // Revalidation for a URL without its hash still works: ETag and Last-Modified come with every answer.
    maxAge: ASSET_MAX_AGE_SECONDS * 1000,
    immutable: true,
    cacheControl: true,
    etag: true,
    lastModified: true,
  });
}
