import fc from 'fast-check';

/**
 * Every property test draws its cases from one seed, so that a run is repeatable and CI fails or passes the same way
 * each time. A property that passes elsewhere can be tried on other cases with `FAST_CHECK_SEED=<n>`; a case a seed
 * found wrong belongs in its test as an example. A test that names its own `seed` keeps it.
 */
fc.configureGlobal({ seed: Number(process.env.FAST_CHECK_SEED ?? 20261130) });
