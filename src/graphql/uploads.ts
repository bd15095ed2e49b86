import { AppError } from '../errors';
import type { LazyUpload } from './scalars/upload.scalar';

/**
 * Reads a GraphQL upload into memory. graphql-upload-minimal stops a file at the configured
 * size and errors its stream; that becomes the same 413 code REST uses.
 */
export async function readUpload(upload: LazyUpload, field: string, maxBytes: number): Promise<Buffer> {
  const file = await upload.file;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of file.createReadStream()) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw new AppError('PAYLOAD_TOO_LARGE', `${field} is larger than ${maxBytes} bytes`, [{ field, message: 'too_large' }]);
      chunks.push(chunk as Buffer);
    }
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw new AppError('PAYLOAD_TOO_LARGE', `${field} is larger than ${maxBytes} bytes or was cut off`, [{ field, message: 'too_large' }]);
  }
  return Buffer.concat(chunks);
}
