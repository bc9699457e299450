// Imported first by the server, before any other module is loaded: makes process.nextTick hot
// while the process is still empty.
//
// Why: Node's nextTick builds each queue entry as an object literal. V8 shares an object's shape
// through a tree of transitions from the plain-object shape, and keeps at most 1,536 transitions
// from one shape. Compiling the route schemas at startup (Ajv and fast-json-stringify write their
// generated names as keys of fresh objects) fills that tree for a moment. If nextTick first settles
// in that moment, every entry it makes gets a shape of its own, and it stays so for the life of
// the process: about 190 ns a call instead of 35, ten calls per HTTP request, which cost the
// positions scenario of `npm run bench` a tenth of its throughput (see bench/README.md). Calls
// made here, before anything else, give it its shared shape first.
const WARM_UP_CALLS = 20_000;

const noop = (..._args: unknown[]): void => {};
for (let i = 0; i < WARM_UP_CALLS; i++) {
  // Node's own callers pass zero to three arguments.
  switch (i % 4) {
    case 0:
      process.nextTick(noop);
      break;
    case 1:
      process.nextTick(noop, i);
      break;
    case 2:
      process.nextTick(noop, i, i);
      break;
    default:
      process.nextTick(noop, i, i, i);
  }
}
