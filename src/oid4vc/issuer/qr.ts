import { deflateSync } from 'node:zlib';
import QRCode from 'qrcode';
import { invalidInput } from '../../errors';

/** Quiet zone of four modules (ISO/IEC 18004's minimum) and 6 pixels per module: readable from a screen across a desk. */
const MARGIN = 4;
const SCALE = 6;

/** CRC-32 (PNG chunk checksums). */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/**
 * A 1-bit grayscale PNG of the QR matrix, encoded here with node:zlib: qrcode's own PNG path
 * (pngjs) costs seconds per image when transformed for the tests and tens of ms in production,
 * this costs about a millisecond.
 */
function pngOf(size: number, dark: (x: number, y: number) => boolean): Buffer {
  const px = (size + 2 * MARGIN) * SCALE;
  const rowBytes = Math.ceil(px / 8);
  const raw = Buffer.alloc((rowBytes + 1) * px, 0);
  for (let y = 0; y < px; y++) {
    const row = y * (rowBytes + 1);
    raw[row] = 0; // filter: none
    const my = Math.floor(y / SCALE) - MARGIN;
    for (let x = 0; x < px; x++) {
      const mx = Math.floor(x / SCALE) - MARGIN;
      const isDark = mx >= 0 && my >= 0 && mx < size && my < size && dark(mx, my);
      // 1 = white in grayscale; dark modules leave their bit 0.
      if (!isDark) raw[row + 1 + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(px, 0);
  ihdr.writeUInt32BE(px, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // grayscale
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** The offer link as an SVG and a PNG data URL; a link too long for a QR code is the caller's 400. */
export async function offerQrCodes(text: string): Promise<{ svg: string; png: string }> {
  let qr: ReturnType<typeof QRCode.create>;
  try {
    qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  } catch {
    throw invalidInput('the offer is too large for a QR code: create it with byReference', [{ field: 'byReference', message: 'use true for large offers' }]);
  }
  const { size, data } = qr.modules;
  const png = pngOf(size, (x, y) => data[y * size + x] === 1);
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: MARGIN });
  return { svg, png: `data:image/png;base64,${png.toString('base64')}` };
}
