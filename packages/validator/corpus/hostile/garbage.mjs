// Hostile: answers every line with garbage, and sometimes with nothing.
process.stdin.setEncoding('utf8');
let n = 0;
process.stdin.on('data', (chunk) => {
  for (const _line of chunk.split('\n').filter(Boolean)) {
    n++;
    if (n % 3 !== 0) process.stdout.write(`\u0000garbage ${n} {not json\n`);
  }
});
process.stdin.on('end', () => process.exit(0));
