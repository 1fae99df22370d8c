// Breaks: completion/complete returns more than 100 values.
// expect: completion.complete, schema.response
// requirement: basic-d-schema-source-of-truth
import { main } from './_server.mjs';

main({ completions: Array.from({ length: 150 }, (_, i) => `value-${i}`) });
