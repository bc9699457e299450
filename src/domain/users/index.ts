export * from './includes.js';
export * from './membership.js';
export * from './training.js';
export * from './endorsements.js';
export * from './roles.js';
