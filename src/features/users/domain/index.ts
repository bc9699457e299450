export * from './includes.js';
export * from './membership.js';
export * from '../../trainings/status.domain.js';
export * from '../../endorsements/times.domain.js';
export * from './roles.js';
