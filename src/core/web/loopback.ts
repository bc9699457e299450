// What counts as this computer: the demo (src/app/demo-mode.ts) listens and answers only there.
import net from 'node:net';

/** 127.0.0.0/8 and ::1 (also as an IPv4-mapped IPv6 address). */
export function isLoopbackAddress(address: string): boolean {
  const a = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
  if (net.isIPv4(a)) return a.startsWith('127.');
  return net.isIPv6(a) && /^(0{0,4}:){2,7}0{0,3}1$|^::1$/.test(a);
}

/** A Host header naming this computer (localhost, 127.x.y.z or [::1], any port): no other name, however it resolves. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+))(?::\d{1,5})?$/.exec(host);
  if (!m) return false;
  const name = (m[1] ?? m[2]!).toLowerCase();
  return name === 'localhost' || isLoopbackAddress(name);
}
