/**
 * A file for an `Upload` variable (face photos). Its own module because the generated operation
 * types name it (codegen.yml maps the Upload scalar here) and the client imports those types: kept
 * in client.ts it made client.ts and generated.ts import each other.
 */
export class CredgateUpload {
  constructor(
    readonly data: Uint8Array,
    readonly filename: string,
    readonly type: string = 'application/octet-stream',
  ) {}
}
