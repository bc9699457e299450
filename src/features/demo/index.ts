// The demo division: a made-up division of believable size, for `npm run demo`, `seed:demo` and the benchmark.
export { buildDemoDivision, DEFAULT_DEMO_SEED, type DemoData } from './division.js';
