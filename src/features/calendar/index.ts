// Calendar feeds of the bookings (iCalendar) and the public schedule page.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import type { PageAssets } from '../../core/web/page-assets.js';
import { VERSION } from '../../version.js';
import type { OnlineService } from '../activity/index.js';
import { CalendarService } from './calendar.service.js';
import calendarRoutes from './calendar.routes.js';
import memberCalendarRoutes from './member-calendar.routes.js';
import scheduleRoutes from './schedule.routes.js';

// What other features use of this one.
export type { CalendarBooking } from './calendar.repository.js';
export type { CalendarFeed } from './calendar.service.js';

function services(deps: ServiceDeps, { online, pageAssets }: { online: OnlineService; pageAssets: PageAssets }) {
  const { config } = deps;
  return {
    /** GET /calendar/bookings.ics and the schedule page. */
    calendar: new CalendarService({
      ...deps,
      version: VERSION,
      assets: pageAssets,
      signIn: config.signIn !== null || config.demo,
      // Without the data feed nothing is known of who is on: the page shows no such section.
      ...(config.dataFeed ? { online: () => online.controllers() } : {}),
    }),
  };
}

export const calendar: Feature<ReturnType<typeof services>, { online: OnlineService; pageAssets: PageAssets }> = {
  services,
  routes: { api: [calendarRoutes], public: [memberCalendarRoutes], publicPages: [scheduleRoutes] },
};
