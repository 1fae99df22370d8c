/** Writes one line of the benchmark's report to stdout (the bench is a command-line program, not an MCP server). */
let guarded = false;

export function print(line = ''): void {
  if (!guarded) {
    guarded = true;
    // Like console.log: a reader that went away (`| head`) is not an error worth a stack trace.
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      throw error;
    });
  }
  process.stdout.write(`${line}\n`);
}
