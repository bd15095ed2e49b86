import { familyADidOf } from '../domain/dids/service-did-documents';
import { bytesToBase64 } from '../domain/encoding';
import { generateEd25519Keypair, parseEd25519PublicKey } from '../domain/keys';
import type { Actor } from '../domain/tenancy/actor';
import type { DidsService } from './dids.service';

/** Family A user side: Ed25519 key pairs the holder keeps, and user DIDs registered for them. */
export class UsersService {
  constructor(private readonly dids: DidsService) {}

  /**
   * A fresh Ed25519 key pair for a holder. Nothing is stored: the holder keeps the private key
   * (base64 of the 32-byte seed) and proves possession by signing.
   */
  generateKeyPair(): { privateKey: string; publicKey: string } {
    const { privateKey, publicKey } = generateEd25519Keypair();
    try {
      return { privateKey: bytesToBase64(privateKey), publicKey: bytesToBase64(publicKey) };
    } finally {
      privateKey.fill(0);
    }
  }

  /** The user's DID in the Family A form; the same key always yields the same DID per tenant. */
  async userDid(actor: Actor, publicKeyBase64: string): Promise<string> {
    const publicKey = parseEd25519PublicKey(publicKeyBase64, 'publicKey');
    const { record } = await this.dids.register(actor, 'Ed25519', publicKey, 'subject');
    return familyADidOf(record);
  }
}
