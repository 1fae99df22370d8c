// Breaks: echo crashes the whole process on text that is not ASCII.
// caught-by: generate
import { main } from './_server.mjs';
main({
  callTool(name, args) {
    if (
      name === 'echo' &&
      typeof args.text === 'string' &&
      [...args.text].some((ch) => ch.charCodeAt(0) > 0x7f)
    ) {
      process.stderr.write('TypeError: cannot encode non-ASCII text\n');
      process.exit(70);
    }
    return undefined;
  },
});
