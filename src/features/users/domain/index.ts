export * from './includes.js';
export * from './membership.js';
export * from '../../trainings/user-training.js';
export * from '../../endorsements/user-endorsements.js';
export * from './roles.js';
