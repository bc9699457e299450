import { describe, expect, it } from 'vitest';
import { parseSnapshot, SnapshotEpochs } from '../../src/db/snapshot-epochs.js';

describe('SnapshotEpochs', () => {
  it('keeps the epoch while only this process’s own transactions end', () => {
    const e = new SnapshotEpochs();
    const first = e.epochOf('100:105:101,103');
    e.registerOwn(105);
    e.registerOwn(106);
    // 105 and 106 (own) ended; 101 and 103 still running.
    expect(e.epochOf('100:107:101,103')).toBe(first);
  });

  it('starts a new epoch when a transaction of someone else’s ends, whether it began before or after the last snapshot', () => {
    const e = new SnapshotEpochs();
    const first = e.epochOf('100:105:101,103');
    // 101 was running at the last snapshot and is not own.
    const second = e.epochOf('100:105:103');
    expect(second).not.toBe(first);
    // 105 began and ended between the two snapshots, not own.
    expect(e.epochOf('103:106:103')).not.toBe(second);
  });

  it('does not count a transaction still running, and counts it once it ends', () => {
    const e = new SnapshotEpochs();
    const first = e.epochOf('100:100:');
    e.registerOwn(100);
    // 101 (someone else's) began after the last snapshot and is still running.
    expect(e.epochOf('101:102:101')).toBe(first);
    expect(e.epochOf('102:102:')).not.toBe(first);
  });

  it('ignores a snapshot older than the last one seen (answers arriving out of order)', () => {
    const e = new SnapshotEpochs();
    e.epochOf('100:100:');
    const after = e.epochOf('100:110:');
    expect(e.epochOf('100:104:')).toBe(after);
    // The older one did not move the last snapshot back: nothing ends twice.
    expect(e.epochOf('100:110:')).toBe(after);
  });

  it('counts an own transaction whose outcome is unknown (disowned) as someone else’s', () => {
    const e = new SnapshotEpochs();
    const first = e.epochOf('100:100:');
    e.registerOwn(100);
    e.disown(100);
    expect(e.epochOf('101:101:')).not.toBe(first);
  });

  it('gives up counting over a long span and starts a new epoch', () => {
    const e = new SnapshotEpochs();
    const first = e.epochOf('100:100:');
    for (let xid = 100; xid < 100 + SnapshotEpochs.MAX_SPAN + 1; xid++) e.registerOwn(xid);
    expect(e.epochOf(`${101 + SnapshotEpochs.MAX_SPAN}:${101 + SnapshotEpochs.MAX_SPAN}:`)).not.toBe(first);
  });

  it('starts a new epoch for text it cannot read', () => {
    const e = new SnapshotEpochs();
    const first = e.epochOf('1:1:');
    expect(e.epochOf('garbage')).not.toBe(first);
  });
});

describe('parseSnapshot', () => {
  it('reads xmin, xmax and the transactions in progress', () => {
    expect(parseSnapshot('5:9:5,7')).toEqual({ xmin: 5, xmax: 9, xip: new Set([5, 7]) });
    expect(parseSnapshot('5:5:')).toEqual({ xmin: 5, xmax: 5, xip: new Set() });
    expect(parseSnapshot('9:5:')).toBeNull();
    expect(parseSnapshot('a:b:')).toBeNull();
  });
});
