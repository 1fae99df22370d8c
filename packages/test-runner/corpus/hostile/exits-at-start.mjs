// Never starts: writes a reason to stderr and exits before the handshake.
process.stderr.write('config error: DATABASE_URL is not set\n');
process.exit(3);
