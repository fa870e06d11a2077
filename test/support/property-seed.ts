import fc from "fast-check";

/**
 * Every property test without a seed of its own runs from one fixed seed, so `npm test` (and CI)
 * checks the same generated cases every time and a failure there is reproduced by running it again.
 * `FC_SEED=N` picks another seed, and `FC_SEED=random` a fresh one per run, to look for new
 * counterexamples (fast-check prints the seed and path of any it finds; pin it as its own test).
 */
const given = process.env.FC_SEED;
if (given !== "random") {
  const seed = given === undefined || given === "" ? 20_261_206 : Number(given);
  if (!Number.isInteger(seed)) throw new Error(`FC_SEED must be an integer or "random", got "${given}"`);
  fc.configureGlobal({ seed });
}
