import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { loadConfig } from '../config/config.js';
import { forwardedClient, trustFunction, trustProxy } from './trust-proxy.js';

const schema = z.object({ TRUST_PROXY: trustProxy() });
const parse = (value?: string) => loadConfig(schema, value === undefined ? {} : { TRUST_PROXY: value }).TRUST_PROXY;

/** A request as node:http hands it over, from `peer`, with these headers. */
const from = (peer: string, headers: Record<string, string> = {}) =>
  ({ socket: { remoteAddress: peer }, connection: { remoteAddress: peer }, headers }) as unknown as IncomingMessage;

describe('TRUST_PROXY', () => {
  it('trusts no proxy by default, nor when false', () => {
    expect(parse()).toBe(false);
    expect(parse('false')).toBe(false);
  });

  it('takes a hop count or a list of addresses, CIDRs and names, as Express does', () => {
    expect(parse('2')).toBe(2);
    expect(parse('10.0.0.0/8, 192.168.1.4,fd00::/8')).toEqual(['10.0.0.0/8', '192.168.1.4', 'fd00::/8']);
    expect(parse('loopback,uniquelocal')).toEqual(['loopback', 'uniquelocal']);
  });

  it.each(['true', 'TRUE', 'yes'])('refuses a bare %s, naming the key and what to set instead', (value) => {
    expect(() => parse(value)).toThrow(/TRUST_PROXY: .*addresses or CIDRs of your proxies.*how many proxies/);
  });

  it('refuses what is not an address, naming the key', () => {
    expect(() => parse('proxy.example.com')).toThrow(/TRUST_PROXY: invalid IP address: proxy\.example\.com/);
    expect(() => parse('10.0.0.0/99')).toThrow(/TRUST_PROXY: /);
  });
});

describe('the client a request comes from', () => {
  const forged = { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' };

  it('is the TCP peer, over plain HTTP, when the peer is not a trusted proxy', () => {
    expect(forwardedClient(from('198.51.100.1', forged), trustFunction(false))).toEqual({ ip: '198.51.100.1', protocol: 'http' });
    expect(forwardedClient(from('198.51.100.1', forged), trustFunction(['10.0.0.0/8']))).toEqual({ ip: '198.51.100.1', protocol: 'http' });
  });

  it('is what a trusted proxy forwarded, and stops at the first hop that is not trusted', () => {
    expect(forwardedClient(from('10.1.2.3', forged), trustFunction(['10.0.0.0/8']))).toEqual({ ip: '203.0.113.7', protocol: 'https' });
    // The client put 192.0.2.66 there itself; the proxy appended the address it saw.
    const chain = from('10.1.2.3', { 'x-forwarded-for': '192.0.2.66, 203.0.113.7' });
    expect(forwardedClient(chain, trustFunction(['10.0.0.0/8'])).ip).toBe('203.0.113.7');
    expect(forwardedClient(chain, trustFunction(1)).ip).toBe('203.0.113.7');
    expect(forwardedClient(chain, trustFunction(['loopback'])).ip).toBe('10.1.2.3');
  });
});
