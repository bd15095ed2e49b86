import sharp from 'sharp';
import { AppError } from '../errors';

/**
 * Image decoding for the face engine, on the main thread: sharp does its work on libuv worker
 * threads (never on the event loop), so decoding here costs the loop nothing, lets the error
 * classification below produce AppErrors where they are thrown, and hands the inference workers
 * only a compact RGB buffer (at most maxSide x maxSide x 3 bytes) instead of loading the native
 * addon and libvips a second time in every worker.
 */

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'avif';

export interface DecodeOptions {
  maxImageBytes: number;
  maxSide: number;
  maxInputPixels: number;
}

export interface DecodedImage {
  /** Packed 8-bit RGB, row-major, width * height * 3 bytes. */
  rgb: Uint8Array;
  width: number;
  height: number;
  format: ImageFormat;
}

export const DEFAULT_MAX_IMAGE_BYTES = 8 * 1024 * 1024;
export const DEFAULT_MAX_SIDE = 1024;
export const DEFAULT_MAX_INPUT_PIXELS = 100_000_000;

export const notAnImage = (): AppError =>
  new AppError('INVALID_INPUT', 'not a supported image (JPEG, PNG, WebP or AVIF expected)', [{ field: 'image', message: 'not_an_image' }]);
export const corruptImage = (): AppError =>
  new AppError('INVALID_INPUT', 'the image is corrupt or truncated', [{ field: 'image', message: 'corrupt_image' }]);
export const imageTooLarge = (what: string): AppError =>
  new AppError('PAYLOAD_TOO_LARGE', `the image is too large (${what})`, [{ field: 'image', message: 'too_large' }]);

const ascii = (bytes: Uint8Array, start: number, end: number): string => Buffer.from(bytes.subarray(start, end)).toString('latin1');

/**
 * Identifies the container from its magic bytes. Only photographic formats are accepted: no SVG
 * (a renderer, not a photo), no TIFF/GIF/RAW/PDF, and HEIC is refused because the bundled libheif
 * decodes AV1 (AVIF) only.
 */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return 'png';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  if (bytes.length >= 16 && ascii(bytes, 4, 8) === 'ftyp') {
    // ISO-BMFF: box size, 'ftyp', major brand, minor version, compatible brands...
    const boxSize = Math.min(bytes.length, Buffer.from(bytes.subarray(0, 4)).readUInt32BE(0));
    const brands = [ascii(bytes, 8, 12)];
    for (let o = 16; o + 4 <= boxSize; o += 4) brands.push(ascii(bytes, o, o + 4));
    if (brands.includes('avif') || brands.includes('avis')) return 'avif';
  }
  return undefined;
}

/**
 * Decodes an uploaded photo to RGB: EXIF orientation applied, alpha flattened onto white, colour
 * converted to 8-bit sRGB, scaled down (never up) to fit inside maxSide x maxSide.
 * Throws AppError PAYLOAD_TOO_LARGE ('too_large') over maxImageBytes or maxInputPixels, and
 * INVALID_INPUT 'not_an_image' / 'corrupt_image'.
 */
export async function decodeImage(bytes: Uint8Array, options: DecodeOptions): Promise<DecodedImage> {
  if (!(bytes instanceof Uint8Array)) throw notAnImage();
  if (bytes.byteLength > options.maxImageBytes) throw imageTooLarge(`more than ${options.maxImageBytes} bytes`);
  const format = sniffImageFormat(bytes);
  if (format === undefined) throw notAnImage();
  try {
    const { data, info } = await sharp(bytes, { failOn: 'error', limitInputPixels: options.maxInputPixels })
      .autoOrient()
      .resize({ width: options.maxSide, height: options.maxSide, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3 || data.length !== info.width * info.height * 3) throw corruptImage();
    return { rgb: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, format };
  } catch (e) {
    if (e instanceof AppError) throw e;
    const message = e instanceof Error ? e.message : '';
    if (/pixel limit/i.test(message)) throw imageTooLarge(`more than ${options.maxInputPixels} pixels`);
    // Bad magic was excluded above, so whatever libvips rejects now is a damaged file.
    throw corruptImage();
  }
}
