/**
 * `npm run bench` — placeholder until the benchmark suite lands.
 */
process.stderr.write('The benchmark suite is not implemented yet.\n');
process.exitCode = 1;
