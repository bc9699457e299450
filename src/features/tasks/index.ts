// Tasks between staff (contract §21): the API, /staff/tasks, and the training page's part.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { TasksService } from './tasks.service.js';
import { TaskPagesService } from './task-pages.service.js';
import tasksRoutes from './tasks.routes.js';
import taskPagesRoutes from './staff.routes.js';

// What other features use of this one.
export type { TaskPagesService, TrainingTasks } from './task-pages.service.js';
export { trainingTasksSection, completionOffer } from './views/training-tasks.js';
export { needsRating, TASK_STATUSES, TASK_TEXT_MAX, TASK_TYPES } from './domain.js';

function services(deps: ServiceDeps) {
  return {
    /** Tasks between staff (contract §21). */
    tasks: new TasksService(deps),
    /** What the tasks pages, the training page and the member's home read of them. */
    taskPages: new TaskPagesService(deps),
  };
}

export const tasks: Feature<ReturnType<typeof services>> = {
  services,
  routes: { api: [tasksRoutes], staff: [taskPagesRoutes] },
};
