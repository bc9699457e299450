export * from './includes.js';
export * from './membership.js';
export * from '../../features/trainings/user-training.js';
export * from '../../features/endorsements/user-endorsements.js';
export * from './roles.js';
