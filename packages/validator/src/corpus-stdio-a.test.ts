import { describe } from 'vitest';
import { corpusSuite } from './test/corpus-suite.js';

describe('corpus on stdio (first half)', () => {
  corpusSuite((entry, index) => entry.transport === 'stdio' && index % 2 === 0);
});
