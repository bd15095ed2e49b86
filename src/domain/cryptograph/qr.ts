import QRCode from 'qrcode';
import { AppError } from '../../errors';
import { CRYPTOGRAPH_PREFIX } from './cryptograph';

/** Medium error correction (~15% of codewords recoverable): survives print wear and glare. */
export const CRYPTOGRAPH_QR_ERROR_CORRECTION = 'M';
/**
 * Alphanumeric characters a QR code (version 40) holds at level M. The oft-quoted 4296 is the
 * level-L figure; at M a cryptograph must stay within 3391 characters.
 */
export const QR_ALPHANUMERIC_CAPACITY_M = 3391;
const QR_ALPHANUMERIC = /^[0-9A-Z $%*+\-./:]+$/;

export interface QrPngOptions {
  /** Pixels per module, 1..16; default 4. Rendering cost grows with its square. */
  scale?: number;
  /** Quiet zone in modules, 0..16; default 4, the minimum ISO/IEC 18004 asks for. */
  margin?: number;
}

function checkInt(value: number | undefined, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new AppError('INVALID_INPUT', `${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}

/**
 * Renders a cryptograph as a PNG QR code (pure computation, no I/O). The text is passed as one
 * alphanumeric-mode segment, so every character costs 5.5 bits.
 *
 * @throws AppError INVALID_INPUT when the text is not a cryptograph, uses characters outside
 * the QR alphanumeric set, or exceeds {@link QR_ALPHANUMERIC_CAPACITY_M}, or options are out of range.
 */
export async function cryptographQrPng(text: string, options: QrPngOptions = {}): Promise<Buffer> {
  if (typeof text !== 'string' || !text.startsWith(CRYPTOGRAPH_PREFIX) || !QR_ALPHANUMERIC.test(text)) {
    throw new AppError('INVALID_INPUT', 'cryptograph must be CG1: text in the QR alphanumeric character set');
  }
  if (text.length > QR_ALPHANUMERIC_CAPACITY_M) {
    throw new AppError(
      'INVALID_INPUT',
      `cryptograph of ${text.length} characters exceeds the QR capacity of ${QR_ALPHANUMERIC_CAPACITY_M} at level M`,
    );
  }
  const scale = checkInt(options.scale, 'scale', 1, 16, 4);
  const margin = checkInt(options.margin, 'margin', 0, 16, 4);
  return QRCode.toBuffer([{ data: text, mode: 'alphanumeric' }], {
    type: 'png',
    errorCorrectionLevel: CRYPTOGRAPH_QR_ERROR_CORRECTION,
    scale,
    margin,
  });
}
