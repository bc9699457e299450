// The schedule page's assets, served from public/ under /assets/ (their versioned URLs:
// src/core/web/page-assets.ts).
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { PUBLIC_DIR } from './page-assets.js';

export const ASSET_MAX_AGE_SECONDS = 365 * 24 * 3600;

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
    // Revalidation for a URL without its hash still works: ETag and Last-Modified come with every response.
    maxAge: ASSET_MAX_AGE_SECONDS * 1000,
    immutable: true,
    cacheControl: true,
    etag: true,
    lastModified: true,
  });
}
