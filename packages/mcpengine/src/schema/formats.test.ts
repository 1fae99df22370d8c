import { describe, expect, it } from 'vitest';
import { compileSchema } from './compile.js';
import { FORMATS } from './formats.js';

const CASES: Record<string, { valid: string[]; invalid: string[] }> = {
  'date-time': {
    valid: [
      '1963-06-19T08:30:06.283185Z',
      '1963-06-19T08:30:06Z',
      '1937-01-01T12:00:27.87+00:20',
      '1990-12-31T15:59:50.123-08:00',
      '1998-12-31T23:59:60Z',
      '1998-12-31T15:59:60.123-08:00',
      '1963-06-19t08:30:06.283185z',
    ],
    invalid: [
      '1998-12-31T23:59:61Z',
      '1998-12-31T23:58:60Z',
      '1998-12-31T22:59:60Z',
      '1990-12-31T15:59:59-24:00',
      '1963-06-19T08:30:06.283185',
      '06/19/1963 08:30:06 PST',
      '2013-350T01:01:01',
      '1963-6-19T08:30:06.283185Z',
      '1963-06-1৪T00:00:00Z',
      '2021-02-29T00:00:00Z',
      '1963-06-19 08:30:06Z',
    ],
  },
  date: {
    valid: ['1963-06-19', '2020-01-31', '2020-02-29', '2000-02-29', '2021-04-30', '2021-12-31'],
    invalid: [
      '2020-01-32',
      '2021-02-29',
      '1900-02-29',
      '2020-02-30',
      '2020-04-31',
      '2020-13-01',
      '2020-00-01',
      '06/19/1963',
      '2013-350',
      '1998-1-20',
      '1998-01-1',
      '1998-13-01',
      '2020-11-31',
      '1963-06-1৪',
      '20230328',
      '2023-W01',
      '2023-W13-2',
      '2022W527',
    ],
  },
  time: {
    valid: [
      '08:30:06Z',
      '23:59:60Z',
      '01:29:60+01:30',
      '23:29:60-00:30',
      '08:30:06.283185Z',
      '08:30:06+00:20',
      '08:30:06-08:00',
      '08:30:06z',
    ],
    invalid: [
      '008:030:006Z',
      '8:3:6Z',
      '8:0030:6Z',
      '22:59:60Z',
      '23:58:60Z',
      '24:00:00Z',
      '00:60:00Z',
      '00:00:61Z',
      '01:02:03+24:00',
      '01:02:03+00:60',
      '08:30:06 PST',
      '01:01:01,1111',
      '12:00:00',
      '1২:00:00Z',
      '08:30:06#00:20',
    ],
  },
  duration: {
    valid: ['P4DT12H30M5S', 'P4Y', 'PT0S', 'P0D', 'P1M', 'PT1M', 'PT36H', 'P1DT12H', 'P2W', 'P1Y2M3DT4H5M6S'],
    invalid: [
      'PT1D',
      'P',
      'P1YT',
      'PT',
      'P2D1Y',
      'P1D2H',
      'P2S',
      'P1Y2W',
      'P২Y',
      'P1',
      '4DT12H30M5S',
      'P1.5Y',
    ],
  },
  email: {
    valid: [
      'joe.bloggs@example.com',
      'te~st@example.com',
      '~test@example.com',
      'test~@example.com',
      '"joe bloggs"@example.com',
      '"joe..bloggs"@example.com',
      '"joe@bloggs"@example.com',
      'joe.bloggs@[127.0.0.1]',
      'joe.bloggs@[IPv6:::1]',
      'te.s.t@example.com',
      'user@localhost',
    ],
    invalid: [
      '2962',
      '.test@example.com',
      'test.@example.com',
      'te..st@example.com',
      'joe.bloggs@invalid=domain.com',
      'joe.bloggs@[127.0.0.300]',
      'user1@oceania.org, user2@oceania.org',
      '"John Doe" <john@example.com>',
      'user@',
      '@example.com',
      'a b@example.com',
    ],
  },
  hostname: {
    valid: [
      'www.example.com',
      'xn--4gbwdl.xn--wgbh1c',
      'hostname',
      'host-name',
      'h0stn4me',
      '1host',
      'hostnam3',
      'a'.repeat(63) + '.com',
    ],
    invalid: [
      '-a-host-name-that-starts-with--',
      'not_a_valid_host_name',
      'a-vvvvvvvvvvvvvvvveeeeeeeeeeeeeeeerrrrrrrrrrrrrrrryyyyyyyyyyyyyyyy-long-host-name-component',
      '-hostname',
      'hostname-',
      '_hostname',
      'hostname_',
      'host_name',
      '',
      '.',
      'host..name',
      'a'.repeat(64) + '.com',
      'abcdefghij.'.repeat(24) + 'com',
    ],
  },
  ipv4: {
    valid: ['192.168.0.1', '0.0.0.0', '255.255.255.255', '87.10.0.1'],
    invalid: [
      '127.0.0.0.1',
      '256.256.256.256',
      '127.0',
      '0x7f000001',
      '2130706433',
      '087.10.0.1',
      '1২7.0.0.1',
      '192.168.1.0/24',
      ' 1.2.3.4',
      '1.2.3.4\n',
    ],
  },
  ipv6: {
    valid: [
      '::1',
      '::abef',
      '::',
      '::42:ff:1',
      'd6::',
      '1:d6::42',
      '1::d6:192.168.0.1',
      '1:2::192.168.0.1',
      '::ffff:192.168.0.1',
      '1:2:3:4:5:6:7:8',
      '1000:1000:1000:1000:1000:1000:255.255.255.255',
      'A:b:C:d:E:f:1:2',
    ],
    invalid: [
      '12345::',
      '::abcef',
      '1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1',
      '::laptop',
      ':2:3:4:5:6:7:8',
      '1:2:3:4:5:6:7:',
      ':2:3:4::8',
      '1::d6::42',
      '1::2:192.168.256.1',
      '1::2:192.168.ff.1',
      '::ffff:192.168.0.1.1',
      '1:2:3:4:5:::8',
      '1:2:3:4:5:6:7:8:9',
      '1',
      '127.0.0.1',
      '::1 ',
      ' ::1',
      'fe80::a%eth1',
      '100:100:100:100:100:100:255.255.255.255.255',
      '1:2:3:4:5:6:7:255.255.255.255',
      '1:2:3:4:5:6:7:৪',
    ],
  },
  uri: {
    valid: [
      'http://foo.bar/?baz=qux#quux',
      'http://foo.com/blah_(wikipedia)_blah#cite-1',
      'http://foo.bar/?q=Test%20URL-encoded%20stuff',
      'http://xn--nw2a.xn--j6w193g/',
      "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com",
      'http://223.255.255.254',
      'ftp://ftp.is.co.za/rfc/rfc1808.txt',
      'http://www.ietf.org/rfc/rfc2396.txt',
      'ldap://[2001:db8::7]/c=GB?objectClass?one',
      'mailto:John.Doe@example.com',
      'news:comp.infosystems.www.servers.unix',
      'tel:+1-816-555-1212',
      'urn:oasis:names:specification:docbook:dtd:xml:4.1.2',
      'http://[2001:0db8:85a3:0000:0000:8a2e:0370:7334]',
      'https://example.com',
    ],
    invalid: [
      '//foo.bar/?baz=qux#quux',
      '/abc',
      '\\\\WINDOWS\\fileshare',
      'abc',
      'http:// shouldfail.com',
      ':// should fail',
      'bar,baz:foo',
      'https://example.org/foobar\\.txt',
      'https://example.org/foo bar',
      'https://[@example.org/test.txt',
      'https://example.org/foobar{.txt',
      'https://example.org/foobar<>.txt',
      'https://example.org/foobar%zz.txt',
      'http://[2001:db8:7]/',
      'http://[::1/',
    ],
  },
  'uri-reference': {
    valid: [
      'http://foo.bar/?baz=qux#quux',
      '//foo.bar/?baz=qux#quux',
      '/abc',
      'abc',
      '#fragment',
      '#',
      '',
      '?q=1',
      '../relative',
      'a:b',
    ],
    invalid: [
      '\\\\WINDOWS\\fileshare',
      'abc#fragment#',
      'http:// shouldfail.com',
      '#frag ment',
      '%zz',
      '//[1:2]/x',
    ],
  },
  uuid: {
    valid: [
      '2EB8AA08-AA98-11EA-B4AA-73B441D16380',
      '2eb8aa08-aa98-11ea-b4aa-73b441d16380',
      '2eb8aa08-AA98-11ea-B4Aa-73B441D16380',
      '00000000-0000-0000-0000-000000000000',
      '98d80576-482e-427f-8434-7f86890ab222',
      '99c17cbb-656f-564a-940f-1a4568f03487',
      '99c17cbb-656f-664a-940f-1a4568f03487',
      '99c17cbb-656f-f64a-940f-1a4568f03487',
    ],
    invalid: [
      '2eb8aa08-aa98-11ea-b4aa-73b441d1638',
      '2eb8aa08-aa98-11ea-73b441d16380',
      '2eb8aa08-aa98-11ea-b4ga-73b441d16380',
      '2eb8aa08aa9811eab4aa73b441d16380',
      '2eb8aa08aa98-11ea-b4aa73b441d16380',
      '2eb8-aa08-aa98-11ea-b4aa73b44-1d16380',
      '2eb8aa08aa9811eab4aa73b441d16380----',
      '{2eb8aa08-aa98-11ea-b4aa-73b441d16380}',
    ],
  },
  regex: {
    valid: ['([abc])+\\s+$', '^\\p{L}+$', ''],
    invalid: ['^(abc]', '(?<', '\\'],
  },
  'json-pointer': {
    valid: ['', '/foo/bar~0/baz~1/%a', '/foo//bar', '/foo/bar/', '/', '/~0~1'],
    invalid: ['/foo/bar~', '#/foo', 'foo', '/~2'],
  },
};

describe('formats (asserted by default)', () => {
  for (const [format, { valid, invalid }] of Object.entries(CASES)) {
    it(format, () => {
      const validator = compileSchema({ format });
      for (const value of valid)
        expect(validator.is(value), `${format}: ${JSON.stringify(value)} is valid`).toBe(true);
      for (const value of invalid)
        expect(validator.is(value), `${format}: ${JSON.stringify(value)} is invalid`).toBe(false);
    });
  }

  it('covers at least the formats MCP relies on', () => {
    for (const name of [
      'date-time',
      'date',
      'time',
      'email',
      'uri',
      'uri-reference',
      'uuid',
      'ipv4',
      'ipv6',
      'hostname',
      'regex',
      'duration',
    ]) {
      expect(FORMATS, name).toHaveProperty([name]);
    }
  });

  it('ignores non-strings and unknown formats', () => {
    expect(compileSchema({ format: 'email' }).is(42)).toBe(true);
    expect(compileSchema({ format: 'x-unknown' }).is('anything')).toBe(true);
    expect(compileSchema({ format: 'toString' }).is('anything')).toBe(true);
  });

  it('only annotates when formats is "annotate"', () => {
    expect(compileSchema({ format: 'email' }, { formats: 'annotate' }).is('not an email')).toBe(true);
  });

  it('reports a readable issue', () => {
    const result = compileSchema({ properties: { when: { format: 'date' } } }).validate({
      when: '2023-02-29',
    });
    expect(result).toEqual({
      valid: false,
      issues: [
        {
          instancePath: '/when',
          schemaPath: '#/properties/when/format',
          keyword: 'format',
          message: 'must be a valid date',
        },
      ],
    });
  });
});
