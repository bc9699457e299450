// The settings section of an import file (contract §24): a member's look and their choice per kind
// of mail, by user_id. The kinds a record names are set; the others keep theirs (or the default).
import { MAX_CID } from '../../../core/domain/limits.js';
import { isLook, isMailKind, LOOKS, MAIL_KINDS } from '../../notices/index.js';
import { fail, gives, instant, int, isObj, record } from './fields.js';
import type { ImportSettings } from './plan.js';
import { pathKey } from './quote.js';

const SETTINGS_FIELDS = ['user_id', 'look', 'mail', 'updated_at'] as const;

export function parseSettings(s: unknown, path: string): ImportSettings {
  const o = record(s, path, SETTINGS_FIELDS);
  let look: ImportSettings['look'];
  if (gives(o, 'look')) {
    const v = o.look ?? 'device';
    if (typeof v !== 'string' || !isLook(v)) return fail(`${path}.look`, `must be ${LOOKS.join(', ')} or null (device)`);
    look = v;
  }
  const mail: ImportSettings['mail'] = [];
  if (o.mail !== undefined && o.mail !== null) {
    if (!isObj(o.mail)) fail(`${path}.mail`, 'must be an object of kind → true/false');
    for (const [kind, on] of Object.entries(o.mail as Record<string, unknown>)) {
      const p = `${path}.mail.${pathKey(kind)}`;
      if (!isMailKind(kind)) fail(p, `unknown kind of mail; expected one of ${MAIL_KINDS.join(', ')}`);
      if (typeof on !== 'boolean') fail(p, 'must be true or false');
      mail.push([kind, on as boolean]);
    }
  }
  return {
    user_id: int(o, 'user_id', path, 1, MAX_CID),
    look,
    mail,
    updated_at: gives(o, 'updated_at') ? instant(o, 'updated_at', path, true) : null,
    path,
  };
}
