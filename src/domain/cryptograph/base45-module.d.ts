/** Typing of the `base45` package (v3, CommonJS, untyped): RFC 9285 encode/decode. */
declare module 'base45' {
  /** Encodes bytes (or the UTF-8 of a string) with the RFC 9285 alphabet. */
  export function encode(input: Uint8Array | string): string;
  /** Decodes without validation: callers must check the alphabet and value ranges first. */
  export function decode(input: string): Buffer;
}
