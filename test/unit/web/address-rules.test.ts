import * as assert from 'node:assert/strict';
import { blockedAddressReason } from '../../../src/host/node/web/address-rules';

describe('web address rules', () => {
  const refused: [string, RegExp][] = [
    ['127.0.0.1', /loopback/],
    ['127.255.0.9', /loopback/],
    ['::1', /loopback/],
    ['10.20.30.40', /private/],
    ['172.16.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.168.0.10', /private/],
    ['fd12:3456::1', /private/],
    ['fc00::1', /private/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['100.127.255.255', /carrier-grade NAT/],
    ['169.254.169.254', /link-local/],
    ['fe80::1', /link-local/],
    ['224.0.0.251', /multicast/],
    ['ff02::1', /multicast/],
    ['0.0.0.0', /unspecified/],
    ['::', /unspecified/],
    ['255.255.255.255', /reserved/],
    // IPv4 carried in IPv6: mapped (both spellings), 6to4 and NAT64.
    ['::ffff:127.0.0.1', /loopback/],
    ['::ffff:7f00:1', /loopback/],
    ['::ffff:169.254.169.254', /link-local/],
    ['::ffff:a00:1', /private/],
    ['2002:a9fe:a9fe::1', /link-local/],
    ['64:ff9b::c0a8:1', /private/],
  ];
  for (const [address, why] of refused)
    it(`refuses ${address}`, () => assert.match(blockedAddressReason(address) ?? 'allowed', why));

  for (const address of [
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])
    it(`allows the public ${address}`, () => assert.equal(blockedAddressReason(address), undefined));

  it('says when a text is no address at all', () => {
    assert.match(blockedAddressReason('example.com') ?? '', /not an IP address/);
  });
});
