export * from './entries.js';
export * from './present.js';
