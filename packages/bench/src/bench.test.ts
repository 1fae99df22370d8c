/**
 * Smoke tests of the benchmark suite's own machinery (no benchmark is run): statistics, the driver's response
 * matching, the HTTP response parser, option parsing and target checks. They keep the suite from rotting.
 */
import { describe, expect, it } from 'vitest';
import { nodeCommand, parseCpuList } from './driver/cpus.js';
import { HttpResponse, ResponseParser } from './driver/http-client.js';
import { InflightTable, WindowStats } from './driver/load-stats.js';
import { fastResponseId, LineSplitter, looksSuccessful, messageFromBody } from './driver/responses.js';
import { makeRow, engineRatios, type ScenarioResult } from './results.js';
import { parseArgs } from './settings.js';
import { median, quantile, ratio, rotation, summarize } from './stats.js';
import { checkTargets } from './targets.js';
import { checkOf, templateOf } from './workloads.js';

describe('stats', () => {
  it('computes medians of odd and even counts without reordering the input', () => {
    const values = [5, 1, 3];
    expect(median(values)).toBe(3);
    expect(values).toEqual([5, 1, 3]);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow(RangeError);
  });

  it('interpolates quantiles', () => {
    expect(quantile([10, 20, 30, 40, 50], 0.5)).toBe(30);
    expect(quantile([10, 20, 30, 40], 0.5)).toBe(25);
    expect(quantile(new Float64Array([3, 1, 2, 99]), 1, 3)).toBe(3);
  });

  it('summarizes and compares in the direction that is better', () => {
    expect(summarize([1, 2, 3])).toEqual({ median: 2, min: 1, max: 3, spread: 0.5 });
    expect(ratio(300, 100, 'higher')).toBe(3);
    expect(ratio(2, 8, 'lower')).toBe(4);
    expect(ratio(undefined, 8, 'lower')).toBeUndefined();
    expect(ratio(5, 0, 'higher')).toBeUndefined();
  });

  it('rotates the order of implementations so that each goes first once', () => {
    const items = ['a', 'b', 'c'];
    expect([0, 1, 2].map((run) => rotation(items, run)[0])).toEqual(['a', 'b', 'c']);
    expect(rotation(items, 4)).toEqual(['b', 'c', 'a']);
  });
});

describe('response matching', () => {
  it('reads the top-level id whether it comes first or last', () => {
    expect(fastResponseId('{"jsonrpc":"2.0","id":42,"result":{"content":[]}}')).toBe(42);
    expect(fastResponseId('{"result":{"structuredContent":{"id":7}},"jsonrpc":"2.0","id":1234}')).toBe(1234);
    expect(fastResponseId('{"jsonrpc":"2.0","id":"s1","result":{}}')).toBe(-1);
    expect(fastResponseId('{"jsonrpc":"2.0","method":"notifications/message"}')).toBe(-1);
  });

  it('tells successes from JSON-RPC errors and tool errors', () => {
    expect(looksSuccessful('{"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":false}}')).toBe(true);
    expect(looksSuccessful('{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"x"}}')).toBe(false);
    expect(looksSuccessful('{"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":true}}')).toBe(false);
    // A quote inside a string value is escaped, so text cannot fake a key.
    expect(
      looksSuccessful(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          result: { content: [{ type: 'text', text: '"error": no' }] },
        }),
      ),
    ).toBe(true);
  });

  it('extracts the response from an SSE body', () => {
    const body =
      'id: 1\ndata: \n\nevent: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\n\nevent: message\ndata: {"jsonrpc":"2.0","id":3,"result":{}}\n\n';
    expect(messageFromBody(body, 'text/event-stream')).toBe('{"jsonrpc":"2.0","id":3,"result":{}}');
    expect(messageFromBody('{"a":1}', 'application/json')).toBe('{"a":1}');
  });

  it('splits lines across chunks', () => {
    const splitter = new LineSplitter();
    const lines: string[] = [];
    splitter.push('{"a":1}\n{"b"', (l) => lines.push(l));
    splitter.push(':2}\r\n\n{"c":3}', (l) => lines.push(l));
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    expect(splitter.pending).toBe('{"c":3}');
  });

  it('matches responses to requests by id, in any order', () => {
    const table = new InflightTable();
    const ids = [table.open(1), table.open(2), table.open(3)];
    expect(ids).toEqual([1, 2, 3]);
    expect(table.close(2)).toBe(2);
    expect(table.close(2)).toBe(-1);
    expect(table.close(99)).toBe(-1);
    expect(table.close(1)).toBe(1);
    expect(table.count).toBe(1);
    // Slots are reused once settled; far more requests than the ring size go through.
    for (let i = 0; i < 100; i++) table.close(table.open(10 + i));
    expect(table.count).toBe(1);
  });

  it('verifies sampled responses with the workload check', () => {
    const stats = new WindowStats();
    const check = checkOf('echo-call');
    stats.verify(
      '{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"hello 42 true"}]}}',
      5,
      check,
    );
    expect(stats.verified).toBe(1);
    expect(() =>
      stats.verify('{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"nope"}]}}', 5, check),
    ).toThrow(/expected the text/);
    expect(() => stats.verify('{"jsonrpc":"2.0","id":6,"result":{}}', 5, check)).toThrow(/id mismatch/);
  });

  it('builds requests around the id slot', () => {
    const { prefix, suffix } = templateOf('echo-call', 'modern');
    const request = JSON.parse(prefix + 17 + suffix) as {
      id: number;
      params: { _meta: Record<string, unknown> };
    };
    expect(request.id).toBe(17);
    expect(request.params._meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
  });
});

describe('HTTP response parser', () => {
  it('parses Content-Length and chunked responses split anywhere', () => {
    const wire =
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{"a":1}' +
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/event-stream\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n' +
      'HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n';
    for (const step of [1, 7, wire.length]) {
      const parser = new ResponseParser();
      const responses = [];
      for (let i = 0; i < wire.length; i += step)
        responses.push(...parser.push(Buffer.from(wire.slice(i, i + step))));
      expect(responses.map((r) => [r.status, r.body])).toEqual([
        [200, '{"a":1}'],
        [200, 'hello world'],
        [202, ''],
      ]);
      expect(responses[1]!.headers.get('content-type')).toBe('text/event-stream');
    }
  });
});

describe('large responses', () => {
  it('are probed at their ends for id and outcome, and decoded in full only on demand', () => {
    const big = 'x'.repeat(100_000);
    for (const json of [
      `{"jsonrpc":"2.0","id":41,"result":{"tools":[{"description":"${big}"}]}}`,
      `{"result":{"tools":[{"description":"${big}","id":3}]},"jsonrpc":"2.0","id":41}`,
    ]) {
      const response = new HttpResponse(
        200,
        new Map([['content-type', 'application/json']]),
        Buffer.from(json),
      );
      const probe = response.probe();
      expect(probe.length).toBeLessThan(2000);
      expect(fastResponseId(probe)).toBe(41);
      expect(looksSuccessful(probe)).toBe(true);
      expect(response.body).toBe(json);
    }
    const error = new HttpResponse(
      200,
      new Map([['content-type', 'application/json']]),
      Buffer.from(`{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"${big}"}}`),
    );
    expect(looksSuccessful(error.probe())).toBe(false);
  });
});

describe('core pinning', () => {
  it('reads kernel CPU lists', () => {
    expect(parseCpuList('0-1')).toEqual([0, 1]);
    expect(parseCpuList('0,2-4,7\n')).toEqual([0, 2, 3, 4, 7]);
    expect(parseCpuList('3')).toEqual([3]);
    expect(parseCpuList('')).toEqual([]);
    expect(parseCpuList('0-x')).toEqual([]);
  });

  it('wraps a Node program in taskset only when given a core', () => {
    expect(nodeCommand(['a.js', 'stdio'], undefined)).toEqual({
      file: process.execPath,
      args: ['a.js', 'stdio'],
    });
    expect(nodeCommand(['a.js'], 1)).toEqual({
      file: 'taskset',
      args: ['-c', '1', process.execPath, 'a.js'],
    });
  });
});

describe('options and targets', () => {
  it('parses options', () => {
    const parsed = parseArgs(['--quick', '--json', 'out.json', '--only', 'stdio-64, leak']);
    expect(parsed.kind).toBe('run');
    if (parsed.kind !== 'run') return;
    expect(parsed.settings.quick).toBe(true);
    expect(parsed.settings.runs).toBe(1);
    expect(parsed.settings.json).toBe('out.json');
    expect(parsed.settings.only).toEqual(['stdio-64', 'leak']);
    expect(parsed.settings.pin).toBe(true);
    const unpinned = parseArgs(['--no-pin']);
    expect(unpinned.kind === 'run' && unpinned.settings.pin).toBe(false);
    expect(() => parseArgs(['--runs', '0'])).toThrow(/positive integer/);
    expect(() => parseArgs(['--bogus'])).toThrow(/unknown option/);
  });

  it('checks ratio and absolute targets', () => {
    const rows = [
      makeRow('mcpengine', 'MCPEngine', [90, 100, 110]),
      makeRow('sdk1', 'SDK 1.x', [30]),
      makeRow('raw', 'raw', [200]),
    ];
    const throughput: ScenarioResult = {
      id: 'stdio-64',
      title: '',
      unit: 'calls/s',
      better: 'higher',
      rows,
      ratios: engineRatios(rows, 'higher'),
      notes: [],
    };
    const sessions: ScenarioResult = {
      id: 'idle-sessions',
      title: '',
      unit: 'bytes',
      better: 'lower',
      rows: [makeRow('mcpengine', 'MCPEngine', [5000])],
      ratios: {},
      notes: [],
    };
    const targets = checkTargets([throughput, sessions]);
    expect(targets.map((t) => [t.description.slice(0, 20), t.met])).toEqual([
      ['stdio 64 in flight: ', true],
      ['stdio 64 in flight: ', false],
      ['idle legacy session:', false],
    ]);
    expect(targets[0]!.value).toBeCloseTo(100 / 30);
  });
});
