export * from './flags.js';
export * from './input.js';
export * from './period.js';
export * from './query.js';
export * from './rules.js';
export * from './batch.js';
