import { describe, expect, it } from 'vitest';
import { pageArguments } from './message-log.js';

const SID = 'AC00000000000000000000000000000000';
const PATH = `/2010-04-01/Accounts/${SID}/Messages.json`;
const query = (name: string, arg = name) => ({
  name,
  arg,
  in: 'query' as const,
  required: false,
  style: 'form',
  explode: true,
});
const list = {
  path: PATH,
  server: 'https://api.twilio.com',
  params: [
    query('To'),
    query('From'),
    query('DateSent'),
    query('DateSent<', 'DateSent__query'),
    query('DateSent>', 'DateSent__query_2'),
    query('PageSize'),
    query('Page'),
    query('PageToken'),
  ],
};

describe('the message log pager', () => {
  it('turns the view filters into list_messages arguments for a first page', () => {
    expect(
      pageArguments({ To: '+14155552671', From: '', DateSentAfter: '2026-11-01', PageSize: 20 }, list),
    ).toEqual({ args: { To: '+14155552671', DateSent__query_2: '2026-11-01', PageSize: 20 } });
    expect(pageArguments({}, list)).toEqual({ args: {} });
  });

  it("follows Twilio's next_page_uri: the filters and the page cursor, nothing else", () => {
    const next = `${PATH}?To=%2B14155552671&PageSize=20&Page=1&PageToken=PASM123&Extra=1`;
    expect(pageArguments({ pageUri: next }, list)).toEqual({
      args: { To: '+14155552671', PageSize: 20, Page: 1, PageToken: 'PASM123' },
    });
    expect(pageArguments({ pageUri: `https://api.twilio.com${PATH}?Page=2` }, list)).toEqual({
      args: { Page: 2 },
    });
  });

  it('refuses any other URI: another origin, another path, a protocol-relative one', () => {
    for (const pageUri of [
      'http://example.com',
      `https://evil.example${PATH}?Page=1`,
      `//evil.example${PATH}`,
      `/2010-04-01/Accounts/${SID}/Calls.json?Page=1`,
      `/2010-04-01/Accounts/AC11111111111111111111111111111111/Messages.json`,
    ])
      expect(pageArguments({ pageUri }, list)).toEqual({
        error: `not a page of this message log: ${pageUri}`,
      });
  });
});
