import { resolveWebOrigins } from './web-origins.js';

describe("a client's web origins", () => {
  it('keeps the listed origins and turns + into the origins of its http(s) redirect URIs, once each', () => {
    const origins = resolveWebOrigins(['https://app.example.com', '+'], ['https://app.example.com/cb', 'http://localhost:3000/cb', 'myapp://cb']);
    expect(origins).toEqual(['https://app.example.com', 'http://localhost:3000']);
  });

  it('without + lists only what was given', () => {
    expect(resolveWebOrigins([], ['https://app.example.com/cb'])).toEqual([]);
  });
});
