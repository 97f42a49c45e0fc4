import { presentRequest, requestStateOf } from './requests.presenter.js';
import type { RequestView } from './requests.js';

const view = (over: Partial<RequestView['record']> = {}, requestKey: string | null = 'k'.repeat(31)): RequestView => ({
  requestKey,
  record: {
    id: '00000000-0000-4000-8000-000000000000',
    requestHash: Buffer.alloc(32),
    custid: 'alice',
    label: 'VPN',
    passphrasePolicy: 'optional',
    secretTtl: 600,
    requestKeySealed: Buffer.alloc(1),
    recipient: null,
    state: 'open',
    createdAt: new Date(1_000_000),
    expiresAt: new Date(2_000_000),
    fulfilledAt: null,
    cancelledAt: null,
    publicKey: null,
    ...over,
  },
});

test('an open request past its time is expired, whether or not the sweeper ran, and its link is no longer shown', () => {
  expect(requestStateOf(view(), 1_999_999)).toBe('open');
  expect(requestStateOf(view(), 2_000_000)).toBe('expired');
  expect(presentRequest(view(), 'https://hush.example', 1_500_000).link).toBe(`https://hush.example/request/${'k'.repeat(31)}`);
  expect(presentRequest(view(), 'https://hush.example', 2_000_001)).toMatchObject({ state: 'expired', link: null });
});

test('an answered or cancelled request shows no link and says when it closed', () => {
  expect(presentRequest(view({ state: 'fulfilled', fulfilledAt: new Date(1_500_000) }), 'https://h', 1_600_000)).toMatchObject({
    state: 'fulfilled',
    link: null,
    fulfilled: 1500,
  });
  expect(presentRequest(view({ state: 'cancelled', cancelledAt: new Date(1_200_000) }), 'https://h', 1_300_000)).toMatchObject({ state: 'cancelled', cancelled: 1200 });
  expect(presentRequest(view({ recipient: 'bo*@e*****.com' }), 'https://h', 1_100_000)).toMatchObject({ recipient: 'bo*@e*****.com' });
  expect(presentRequest(view(), 'https://h', 1_100_000)).not.toHaveProperty('recipient');
});
