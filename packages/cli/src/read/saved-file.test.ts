import { safeFileName } from './saved-file.ts';

describe("a file's stored name, as a name to save it under here", () => {
  it('keeps an ordinary name, spaces and dots included', () => {
    expect(safeFileName('kube config.yaml')).toBe('kube config.yaml');
    expect(safeFileName('.env')).toBe('.env');
  });

  it('keeps only the last part of a path, so nothing is written outside the folder', () => {
    expect(safeFileName('../../.ssh/authorized_keys')).toBe('authorized_keys');
    expect(safeFileName('C:\\Users\\x\\evil.bat')).toBe('evil.bat');
  });

  it('drops control characters, and names nothing safe "secret-file"', () => {
    expect(safeFileName('re\u0000port\u001b[31m.txt')).toBe('report[31m.txt');
    for (const name of ['', '..', '.', '/', 'dir/', '\u0007']) expect(safeFileName(name)).toBe('secret-file');
  });
});
