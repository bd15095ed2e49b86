import busboy from 'busboy';
import type { Request } from 'express';
import { AppError, invalidInput } from '../../errors';

export interface MultipartBody {
  readonly files: ReadonlyMap<string, Buffer>;
  readonly fields: Readonly<Record<string, string>>;
}

/**
 * Reads a multipart/form-data body into memory, accepting only the named file parts and small
 * text fields. A file over `maxFileBytes` is a 413 and the request is abandoned; nothing is
 * stored from a refused request.
 */
export function readMultipart(req: Request, options: { files: readonly string[]; fields?: readonly string[]; maxFileBytes: number }): Promise<MultipartBody> {
  if (!req.is('multipart/form-data')) {
    return Promise.reject(new AppError('UNSUPPORTED_MEDIA_TYPE', 'this operation takes multipart/form-data'));
  }
  return new Promise((resolve, reject) => {
    const files = new Map<string, Buffer>();
    const fields: Record<string, string> = {};
    let failed = false;
    const fail = (e: AppError): void => {
      if (failed) return;
      failed = true;
      req.unpipe(bb);
      req.resume();
      reject(e);
    };
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        // busboy signals a limit when it is reached, so allow one more part than expected: the
        // name checks below refuse any extra or repeated part with a clear error.
        limits: { fileSize: options.maxFileBytes, files: options.files.length + 1, fields: (options.fields ?? []).length + 1, fieldSize: 256 * 1024 },
      });
    } catch {
      reject(invalidInput('malformed multipart body'));
      return;
    }
    bb.on('file', (name, stream) => {
      // busboy destroys the open file stream with its own error when the body ends early; without
      // a listener that error was unhandled and took the whole process down.
      stream.on('error', () => fail(invalidInput('malformed or truncated multipart body')));
      if (!options.files.includes(name) || files.has(name)) {
        stream.resume();
        fail(invalidInput(`unexpected file part ${name}`, [{ field: name, message: 'unexpected part' }]));
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => fail(new AppError('PAYLOAD_TOO_LARGE', `${name} is larger than ${options.maxFileBytes} bytes`, [{ field: name, message: 'too_large' }])));
      stream.on('end', () => {
        if (!failed) files.set(name, Buffer.concat(chunks));
      });
    });
    bb.on('field', (name, value) => {
      if (!(options.fields ?? []).includes(name)) return fail(invalidInput(`unexpected field ${name}`, [{ field: name, message: 'unexpected field' }]));
      fields[name] = value;
    });
    bb.on('filesLimit', () => fail(invalidInput('too many files')));
    bb.on('fieldsLimit', () => fail(invalidInput('too many fields')));
    bb.on('error', () => fail(invalidInput('malformed multipart body')));
    bb.on('close', () => {
      if (!failed) resolve({ files, fields });
    });
    // A body cut off (client gone, or the upload idle timeout) must settle the promise too.
    req.once('close', () => {
      if (!req.complete) fail(new AppError('REQUEST_TIMEOUT', 'the upload was cut off before it was complete'));
    });
    req.pipe(bb);
  });
}

/** The named file parts, each required and non-empty. */
export function requiredFiles(body: MultipartBody, names: readonly string[]): Buffer[] {
  const missing = names.filter((n) => !body.files.get(n)?.length);
  if (missing.length > 0) throw invalidInput(`missing file part ${missing.join(', ')}`, missing.map((field) => ({ field, message: 'required file' })));
  return names.map((n) => body.files.get(n)!);
}
