import { parseDuration } from './durations.ts';

describe('a lifetime as a person writes it', () => {
  it.each([
    ['3600', 3600],
    ['90s', 90],
    ['30m', 1800],
    ['12h', 43200],
    ['7d', 604800],
  ])('%s is %i seconds', (text, seconds) => {
    expect(parseDuration(text, '--ttl')).toBe(seconds);
  });

  it.each(['', '0', '-5', '1.5h', '2w', 'soon', '10 m'])('%j is refused, naming the flag (exit 2)', (text) => {
    expect(() => parseDuration(text, '--ttl')).toThrow(expect.objectContaining({ exitCode: 2, message: expect.stringContaining('--ttl') }));
  });
});
