#!/usr/bin/env node
// `npx sector …` from the repository root (and inside the container) runs the compiled CLI.
import '../../dist/cli/index.js';
