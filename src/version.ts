import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from './core/project-root.js';

const pkg = JSON.parse(fs.readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { version: string };
export const VERSION: string = pkg.version;
