// Hostile: writes to stdout without end from the first moment, on one endless line.
const chunk = 'x'.repeat(1 << 20);
const flood = () => {
  while (process.stdout.write(chunk));
  process.stdout.once('drain', flood);
};
flood();
process.stdin.resume();
