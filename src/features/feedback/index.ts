// Feedback (contract §23): members report on a controller or a session; the area's staff handle it.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import feedbackApiRoutes from './feedback.routes.js';
import { FeedbackService } from './feedback.service.js';
import feedbackMemberRoutes from './member.routes.js';
import feedbackStaffRoutes from './staff.routes.js';

// What other features use of this one (the export and import).
export { COMMENT_MAX as FEEDBACK_COMMENT_MAX, TEXT_MAX as FEEDBACK_TEXT_MAX } from './domain.js';

function services(deps: ServiceDeps) {
  return { feedback: new FeedbackService(deps) };
}

export const feedback: Feature<ReturnType<typeof services>> = {
  services,
  routes: { api: [feedbackApiRoutes], members: [feedbackMemberRoutes], staff: [feedbackStaffRoutes] },
};
