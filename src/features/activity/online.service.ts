// GET /api/online and the schedule page's "On now": the open sessions of the division's positions.
import { isoMicros } from '../../core/domain/time.js';
import type { OnlineItem } from './online.schema.js';
import type { Deps } from '../../app/deps.js';

export interface OnlineController {
  callsign: string;
  position: string;
  frequency: string;
  since: number;
  cid: number;
  name: string | null;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export class OnlineService {
  constructor(private readonly deps: Deps<'repos' | 'clock' | 'config'>) {}

  /**
   * Open sessions seen recently: when the feed has not been read for a while (it failed, every
   * instance stopped), nobody is shown as online on the strength of an old sighting.
   */
  async controllers(): Promise<OnlineController[]> {
    const windowMs = Math.max(3 * (this.deps.config.dataFeed?.intervalS ?? 60), 300) * 1000;
    const rows = await this.deps.repos.controllingSessions.open(this.deps.clock() - windowMs);
    return rows
      .map((r) => ({
        callsign: r.callsign,
        position: r.position,
        frequency: r.frequency ?? '',
        since: r.logon_time,
        cid: r.cid,
        name: r.first_name !== null || r.last_name !== null ? [r.first_name, r.last_name].filter(Boolean).join(' ') : r.name,
      }))
      .sort((a, b) => byText(a.position, b.position) || byText(a.callsign, b.callsign));
  }

  async list(keyed: boolean): Promise<{ data: OnlineItem[] }> {
    const data = (await this.controllers()).map((c): OnlineItem => {
      const item: OnlineItem = { callsign: c.callsign, position: c.position, frequency: c.frequency, since: isoMicros(c.since) };
      if (keyed) {
        item.cid = c.cid;
        item.name = c.name ?? '';
      }
      return item;
    });
    return { data };
  }
}
