import { Type } from 'typebox';
import { ErrorBody } from '../../core/web/schema-atoms.js';

export const streamEvents = {
  operationId: 'streamEvents',
  tags: ['events'],
  summary: 'Live stream of booking events (server-sent events)',
  description:
    'Responds with `text/event-stream`: each event as `id: <event id>`, `event: <type>` (`booking.created`, `booking.updated`, ' +
    '`booking.deleted` and the others of docs/events.md, as `types` selects; ignore types you do not know) and `data: <event body>`, the same JSON a webhook receives. ' +
    'Reconnect with `Last-Event-ID` to receive what you missed (within the retention, 7 days by default) before live events; ' +
    'an unknown or expired id starts the stream with one `event: reset` (re-read the lists). A comment line `: keep-alive` ' +
    'comes every 15 s. A client that stops reading is disconnected once about 1 MiB is waiting for it; it resumes with ' +
    '`Last-Event-ID`. At most 10 streams per key and 1000 in all are open per server (configurable); past a cap the response ' +
    'is 429 with `Retry-After`. The stream of a key that is revoked or expires ends at the next keep-alive. See docs/events.md.',
  querystring: Type.Object({
    types: Type.Optional(
      Type.Union([Type.String({ maxLength: 100 }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 40 })], {
        description:
          'Comma-separated event types to receive (e.g. `booking.created,task.created`). Without it, every type but those that go ' +
          'only to streams naming them: `training.report_deleted`, `task.*`, `feedback.created`, `vote.closed`, `activity.inactive_online`.',
      }),
    ),
  }),
  headers: Type.Object({
    'last-event-id': Type.Optional(Type.String({ maxLength: 200, description: 'The id of the last event received' })),
  }),
  response: {
    200: {
      description: 'The event stream (stays open)',
      content: {
        'text/event-stream': {
          schema: Type.String({
            examples: [
              'id: evt_01JD8Q3ZC9K7X5V2M4N6P8R0ST\nevent: booking.created\ndata: {"id":"evt_01JD8Q3ZC9K7X5V2M4N6P8R0ST","type":"booking.created","timestamp":"2026-01-10T12:00:00.000000Z","data":{"booking":{"id":1,"callsign":"EKCH_TWR"}}}\n\n',
            ],
          }),
        },
      },
    },
    401: ErrorBody,
    429: ErrorBody,
  },
};
