// Floods stdout with log lines (console.log in a stdio server) once a tool is called.
import { main } from '../_server.mjs';
main({
  callTool(name) {
    if (name !== 'echo') return undefined;
    const flood = () => {
      let more = true;
      while (more) more = process.stdout.write('debug: still working on it, lots of output here\n');
      process.stdout.once('drain', flood);
    };
    flood();
    return 'never';
  },
});
