/** Modules of light margin around the code (ISO/IEC 18004 asks for 4). */
const QUIET = 4;

/**
 * A QR code of `text` for a terminal, two modules per character cell (half blocks), with its
 * quiet zone. `colors`: black on white pinned with ANSI codes, so it scans on a dark theme too;
 * without them (not a terminal) the characters alone. Drawn from qrcode's module matrix, as the
 * secrets service draws its SVG ones; qrcode is loaded only when a code is asked for.
 */
export async function qrText(text: string, colors: boolean): Promise<string> {
  const { default: QRCode } = await import('qrcode');
  const { size, data } = QRCode.create(text, { errorCorrectionLevel: 'M' }).modules;
  const dark = (x: number, y: number) => x >= 0 && y >= 0 && x < size && y < size && data[y * size + x] !== 0;
  const lines: string[] = [];
  for (let y = -QUIET; y < size + QUIET; y += 2) {
    let line = '';
    for (let x = -QUIET; x < size + QUIET; x++) {
      const top = dark(x, y);
      const bottom = dark(x, y + 1);
      line += top && bottom ? '\u2588' : top ? '\u2580' : bottom ? '\u2584' : ' ';
    }
    lines.push(colors ? `\u001b[30;47m${line}\u001b[0m` : line);
  }
  return `${lines.join('\n')}\n`;
}
