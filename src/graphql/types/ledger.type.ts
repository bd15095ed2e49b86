import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A signed C2SP checkpoint of a ledger log head (REST: GET /ledger/{logId}/checkpoint).' })
export class LedgerCheckpoint {
  @Field(() => String, { description: 'Ledger id 0.0.<n>.' })
  logId!: string;

  @Field(() => String, { description: 'Checkpoint origin line: <origin>/<logId>.' })
  origin!: string;

  @Field(() => Int)
  treeSize!: number;

  @Field(() => String, { description: 'RFC 9162 root hash, base64.' })
  rootHash!: string;

  @Field(() => String, { description: 'The signed note: checkpoint body, blank line, signature line.' })
  note!: string;

  @Field(() => String, { description: 'C2SP verifier key <name>+<keyid>+<base64(0x01||pubkey)>.' })
  verifierKey!: string;

  @Field(() => String, { description: 'Ed25519 public key of the log, base64.' })
  publicKey!: string;

  @Field(() => String, { description: 'ISO 8601 time this head was signed. Not in the note; reads serve the stored head and never re-sign.' })
  signedAt!: string;
}

@ObjectType({ description: 'An RFC 9162 inclusion proof (REST: GET /ledger/{logId}/proof/inclusion).' })
export class LedgerInclusionProof {
  @Field(() => String)
  logId!: string;

  @Field(() => Int)
  leafIndex!: number;

  @Field(() => Int)
  treeSize!: number;

  @Field(() => String, { description: 'base64 leaf hash at leafIndex.' })
  leafHash!: string;

  @Field(() => [String], { description: 'base64 hashes, lowest first.' })
  proof!: string[];

  @Field(() => LedgerCheckpoint, { description: 'The current signed head (treeSize <= checkpoint.treeSize).' })
  checkpoint!: LedgerCheckpoint;
}

@ObjectType({ description: 'An RFC 9162 consistency proof (REST: GET /ledger/{logId}/proof/consistency).' })
export class LedgerConsistencyProof {
  @Field(() => String)
  logId!: string;

  @Field(() => Int)
  fromSize!: number;

  @Field(() => Int)
  toSize!: number;

  @Field(() => [String], { description: 'base64 hashes.' })
  proof!: string[];

  @Field(() => LedgerCheckpoint)
  checkpoint!: LedgerCheckpoint;
}

@ObjectType({ description: 'A ledger entry with its inclusion proof in the current head (REST: GET /ledger/{logId}/entries/{entryHash}).' })
export class LedgerEntryProof {
  @Field(() => String)
  logId!: string;

  @Field(() => String, { description: 'Lowercase hex SHA-256 of the anchored record.' })
  entryHash!: string;

  @Field(() => Int)
  leafIndex!: number;

  @Field(() => String)
  kind!: string;

  @Field(() => String)
  ref!: string;

  @Field(() => String, { description: 'base64 RFC 9162 leaf hash: SHA-256(0x00 || entryHash).' })
  leafHash!: string;

  @Field(() => Int, { description: 'Equals checkpoint.treeSize.' })
  treeSize!: number;

  @Field(() => [String], { description: 'base64 inclusion proof hashes, lowest first.' })
  proof!: string[];

  @Field(() => LedgerCheckpoint)
  checkpoint!: LedgerCheckpoint;
}

@ObjectType({ description: 'Leaf hashes of [start, end) (REST: GET /ledger/{logId}/leaves).' })
export class LedgerLeaves {
  @Field(() => String)
  logId!: string;

  @Field(() => Int)
  start!: number;

  @Field(() => Int)
  end!: number;

  @Field(() => [String], { description: 'base64 leaf hashes in index order.' })
  leafHashes!: string[];
}
