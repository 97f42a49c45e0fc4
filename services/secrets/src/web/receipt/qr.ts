import { createRequire } from 'node:module';
import type QRCode from 'qrcode';
import { raw, type Html } from '@hush/common';

type QRCodeModule = typeof QRCode;
/**
 * qrcode (with pngjs, ~0.8 MB of heap) is loaded when the first QR code is drawn: only the
 * creator's page after a share draws one, and an API-only process never does.
 * Required rather than imported: qrSvg is synchronous, as the page renderers calling it are.
 */
let qrcode: QRCodeModule | undefined;
const load = () => (qrcode ??= createRequire(import.meta.url)('qrcode') as QRCodeModule);

/**
 * A QR code of `text` as inline SVG, drawn on the server: one path of dark modules on a white
 * square with a 4-module quiet zone. Attributes only (no style, no script), so the page's CSP
 * needs nothing more; `text` is encoded in the path geometry, never put in the markup.
 */
export function qrSvg(text: string, label: string): Html {
  const { size, data } = load().create(text, { errorCorrectionLevel: 'M' }).modules;
  const quiet = 4;
  const full = size + 2 * quiet;
  let d = '';
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) if (data[y * size + x]) d += `M${x + quiet} ${y + quiet}h1v1h-1z`;
  }
  const escaped = label.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return raw(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${full} ${full}" role="img" aria-label="${escaped}" shape-rendering="crispEdges"><rect width="${full}" height="${full}" fill="#fff"/><path d="${d}" fill="#000"/></svg>`,
  );
}
