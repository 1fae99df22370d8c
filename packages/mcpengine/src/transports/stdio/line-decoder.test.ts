import { describe, expect, it } from 'vitest';
import type { InboundProblem } from '../transport.js';
import { LineDecoder, type LineDecoderOptions } from './line-decoder.js';

type Event = string | InboundProblem;

function decode(chunks: readonly (Uint8Array | string)[], options?: LineDecoderOptions): Event[] {
  const events: Event[] = [];
  const decoder = new LineDecoder(
    { line: (text) => events.push(text), invalid: (problem) => events.push(problem) },
    options,
  );
  for (const chunk of chunks) decoder.write(chunk);
  decoder.end();
  return events;
}

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('LineDecoder', () => {
  it('splits LF and CRLF lines and skips blank ones', () => {
    expect(decode([bytes('{"a":1}\n\n  \t\r\n{"b":2}\r\n\r\n{"c":3}\n')])).toEqual([
      '{"a":1}',
      '{"b":2}',
      '{"c":3}',
    ]);
  });

  it('keeps inner whitespace and a lone CR that is not a line ending', () => {
    expect(decode([bytes(' {"a":"x\ry"} \n')])).toEqual([' {"a":"x\ry"} ']);
  });

  it('flushes a final line without a newline at end of stream', () => {
    expect(decode([bytes('{"a":1}\n{"b"'), bytes(':2}')])).toEqual(['{"a":1}', '{"b":2}']);
    expect(decode([bytes('{"a":1}\r')])).toEqual(['{"a":1}']);
    expect(decode([bytes('   ')])).toEqual([]);
  });

  it('decodes identically however the input is split (every byte position, multi-byte characters)', () => {
    const text = '{"text":"héllo wörld ✓ 😀"}\r\n\n{"id":2,"x":"日本語"}\n{"last":"€"}';
    const input = bytes(text);
    const expected = ['{"text":"héllo wörld ✓ 😀"}', '{"id":2,"x":"日本語"}', '{"last":"€"}'];
    for (let i = 0; i <= input.length; i++) {
      expect(decode([input.subarray(0, i), input.subarray(i)])).toEqual(expected);
      for (let j = i; j <= input.length; j += 7) {
        expect(decode([input.subarray(0, i), input.subarray(i, j), input.subarray(j)])).toEqual(expected);
      }
    }
    // One byte at a time.
    expect(decode([...input].map((b) => Uint8Array.of(b)))).toEqual(expected);
  });

  it('accepts plain Uint8Array views and strings', () => {
    const backing = new Uint8Array([0, 0, ...bytes('{"a":1}\n'), 0]);
    expect(decode([backing.subarray(2, 10), '{"b":2}\n'])).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('reports an oversized line once and recovers at the next newline', () => {
    const limit = 16;
    const big = 'x'.repeat(40);
    expect(decode([bytes(`${big}\n{"ok":1}\n`)], { maxMessageBytes: limit })).toEqual([
      { kind: 'too-large', limit, size: 40 },
      '{"ok":1}',
    ]);
    // Streamed in small chunks, so it is discarded while it arrives.
    const chunks = [...bytes(`{"a":1}\n${big}\r\n{"ok":2}\n`)].map((b) => Uint8Array.of(b));
    expect(decode(chunks, { maxMessageBytes: limit })).toEqual([
      '{"a":1}',
      { kind: 'too-large', limit, size: 40 },
      '{"ok":2}',
    ]);
    // An oversized final line without a newline is still reported.
    expect(decode([bytes(big.slice(0, 10)), bytes(big.slice(10))], { maxMessageBytes: limit })).toEqual([
      { kind: 'too-large', limit, size: 40 },
    ]);
  });

  it('accepts a line of exactly the limit, with LF or CRLF, whatever the chunking', () => {
    const line = '"' + 'x'.repeat(14) + '"';
    for (const ending of ['\n', '\r\n']) {
      const input = bytes(line + ending + line + ending);
      for (let i = 0; i <= input.length; i++) {
        expect(decode([input.subarray(0, i), input.subarray(i)], { maxMessageBytes: 16 })).toEqual([
          line,
          line,
        ]);
      }
    }
    expect(decode([bytes(line + 'x\r\n')], { maxMessageBytes: 16 })).toEqual([
      { kind: 'too-large', limit: 16, size: 17 },
    ]);
    expect(decode([bytes(line + 'x'), bytes('\r'), bytes('\n')], { maxMessageBytes: 16 })).toEqual([
      { kind: 'too-large', limit: 16, size: 17 },
    ]);
  });

  it('measures the limit in UTF-8 bytes, not characters, for lines within one chunk', () => {
    const fits = '"éééé"'; // 6 characters, 10 bytes
    const over = '"ééééééééé"'; // 11 characters, 20 bytes
    expect(decode([bytes(`${fits}\n${over}\r\n${fits}\n`)], { maxMessageBytes: 16 })).toEqual([
      fits,
      { kind: 'too-large', limit: 16, size: 20 },
      fits,
    ]);
    expect(decode([bytes(`${'é'.repeat(8)}\n`)], { maxMessageBytes: 16 })).toEqual(['é'.repeat(8)]);
  });

  it('holds at most about one limit of an oversized line in memory', () => {
    const limit = 1024;
    const events: Event[] = [];
    const decoder = new LineDecoder(
      { line: (text) => events.push(text), invalid: (problem) => events.push(problem) },
      { maxMessageBytes: limit },
    );
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    for (let i = 0; i < 64; i++) decoder.write(chunk); // 4 MiB without a newline
    decoder.write(bytes('\n{"ok":true}\n'));
    expect(events).toEqual([{ kind: 'too-large', limit, size: 64 * 64 * 1024 }, '{"ok":true}']);
  });

  it('reports invalid UTF-8 per line and carries on', () => {
    const input = Buffer.concat([
      bytes('{"a":1}\n'),
      Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]), // invalid bytes
      Buffer.from([0x7b, 0xc3]), // truncated sequence, then a newline
      bytes('\n{"b":"é"}\n'),
      Buffer.from([0xed, 0xa0, 0x80, 0x0a]), // an encoded surrogate is not UTF-8
    ]);
    const expected = [
      '{"a":1}',
      { kind: 'invalid-utf8' },
      { kind: 'invalid-utf8' },
      '{"b":"é"}',
      { kind: 'invalid-utf8' },
    ];
    expect(decode([input])).toEqual(expected);
    for (let i = 0; i <= input.length; i++) {
      expect(decode([input.subarray(0, i), input.subarray(i)])).toEqual(expected);
    }
  });

  it('rejects a nonsensical limit', () => {
    expect(() => new LineDecoder({ line() {}, invalid() {} }, { maxMessageBytes: 0 })).toThrow(RangeError);
  });
});
