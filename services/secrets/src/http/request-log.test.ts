import { logPath } from './request-log.js';

describe('log paths', () => {
  it('never carry keys', () => {
    expect(logPath('/api/v1/secret/abc123')).toBe('/api/v1/secret/:key');
    expect(logPath('/api/v1/private/abc123/burn')).toBe('/api/v1/private/:key/burn');
    expect(logPath('/api/v1/private/recent')).toBe('/api/v1/private/recent');
    expect(logPath('/api/v1/metadata/recentish')).toBe('/api/v1/metadata/:key');
  });
});
