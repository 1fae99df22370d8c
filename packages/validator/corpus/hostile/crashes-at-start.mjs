// Hostile: dies at once with an error on stderr.
process.stderr.write('fatal: cannot load configuration\n');
process.exit(3);
