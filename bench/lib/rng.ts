/** The one deterministic PRNG (mulberry32), so a bench's data is the same bytes on every machine. */
export { seededRng as rng } from '../../src/testing/rng.js';
