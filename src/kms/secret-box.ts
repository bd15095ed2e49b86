import type { SecretBox } from '../domain/ports';
import { type Keyring, open, seal } from './envelope';

/** Seals records other than private keys (e.g. the issuer's plaintext copy of a subject). */
export class EnvelopeSecretBox implements SecretBox {
  constructor(private readonly keys: Keyring) {}

  seal(plaintext: Uint8Array, context: string): Uint8Array {
    return seal(this.keys, plaintext, `credgate/secret/v1|${context}`);
  }

  open(envelope: Uint8Array, context: string): Uint8Array {
    return open(this.keys, envelope, `credgate/secret/v1|${context}`);
  }
}
