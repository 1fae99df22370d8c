// Hostile: reads stdin and never writes a byte.
process.stdin.resume();
