// What a member's calendar feed takes (./member-calendar.routes.ts): its secret file name.
import { Type } from 'typebox';

export const memberCalendar = { hide: true, params: Type.Object({ file: Type.String({ maxLength: 200 }) }) } as const;
