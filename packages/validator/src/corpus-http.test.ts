import { describe } from 'vitest';
import { corpusSuite } from './test/corpus-suite.js';

describe('corpus on Streamable HTTP and HTTP+SSE', () => {
  corpusSuite((entry) => entry.transport !== 'stdio');
});
