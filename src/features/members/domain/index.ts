export * from './includes.js';
export * from './membership.js';
export * from './roles.js';
