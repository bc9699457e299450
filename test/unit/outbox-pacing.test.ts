// How the outbox workers space their takes and pace their attempts (docs/events.md, "Prompt").
import { describe, expect, it } from 'vitest';
import { BackgroundPacing, PACED_GAP_MS } from '../../src/services/background-pacing.js';
import { TakeSpacing } from '../../src/services/events/take-spacing.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Keeps the event loop busy, as a burst of requests would. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin
  }
}

describe('take spacing', () => {
  it('takes at once after a quiet spell, then once per spacing, calling back when the next may run', async () => {
    let due = 0;
    const spacing = new TakeSpacing(() => due++, 40);
    expect(spacing.mayTake()).toBe(true);
    spacing.taking();
    expect(spacing.mayTake()).toBe(false);
    expect(spacing.mayTake()).toBe(false);
    await sleep(80);
    // One call back for the commits that had to wait, however many there were.
    expect(due).toBe(1);
    expect(spacing.mayTake()).toBe(true);
    spacing.stop();
  });
});

describe('background pacing', () => {
  it('gives every free slot while the event loop has room', async () => {
    const pacing = new BackgroundPacing(() => {});
    await sleep(120);
    expect(pacing.allow(8)).toBe(8);
    expect(pacing.allow(8)).toBe(8);
    expect(pacing.allow(0)).toBe(0);
    pacing.stop();
  });

  it('starts one attempt per gap while the loop is saturated, and calls back when the next may start', async () => {
    let due = 0;
    const pacing = new BackgroundPacing(() => due++);
    busy(150);
    expect(pacing.allow(8)).toBe(1);
    expect(pacing.allow(8)).toBe(0);
    expect(pacing.allow(8)).toBe(0);
    await sleep(PACED_GAP_MS + 40);
    expect(due).toBe(1);
    // Idle since: the loop has room again, and every slot is given.
    await sleep(120);
    expect(pacing.allow(8)).toBe(8);
    pacing.stop();
  });
});
