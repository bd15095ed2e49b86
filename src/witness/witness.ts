import { base64 } from '@scure/base';
import { type NoteVerifier, parseCheckpoint, verifyConsistency, verifyNote } from '../domain/merkle';
import type { Clock } from '../domain/ports';
import { type WitnessSigner, cosign } from './cosignature';
import type { StateDecision, WitnessStateStore } from './witness-state';

/** An HTTP answer of `add-checkpoint` (c2sp.org/tlog-witness). */
export interface WitnessAnswer {
  readonly status: 200 | 400 | 403 | 404 | 409 | 422;
  readonly contentType: string;
  readonly body: string;
}

export interface WitnessOptions {
  /** Trusted log keys. A key covers the origin equal to its name and every origin `<name>/…`. */
  readonly logKeys: readonly NoteVerifier[];
  readonly signer: WitnessSigner;
  readonly state: WitnessStateStore;
  readonly clock: Clock;
}

/** The spec allows at most 63 proof lines (a tree of up to 2^63 leaves). */
const MAX_PROOF_LINES = 63;
const TEXT = 'text/plain; charset=utf-8';

const answer = (status: WitnessAnswer['status'], body: string, contentType = TEXT): WitnessAnswer => ({ status, contentType, body: `${body}\n` });

interface AddRequest {
  readonly oldSize: number;
  readonly proof: Uint8Array[];
  readonly note: string;
}

/** Parses `old <n>\n[<base64 hash>\n…]\n<signed checkpoint>`; a string names what is wrong. */
function parseRequest(text: string): AddRequest | string {
  const blank = text.indexOf('\n\n');
  if (blank < 0) return 'the body must be an old size line, proof lines, a blank line and the checkpoint';
  const [oldLine = '', ...proofLines] = text.slice(0, blank).split('\n');
  const old = /^old (0|[1-9][0-9]{0,15})$/.exec(oldLine);
  if (!old || !Number.isSafeInteger(Number(old[1]))) return 'the first line must be "old <size>"';
  if (proofLines.length > MAX_PROOF_LINES) return `at most ${MAX_PROOF_LINES} consistency proof lines`;
  const proof: Uint8Array[] = [];
  for (const line of proofLines) {
    let hash: Uint8Array;
    try {
      hash = base64.decode(line);
    } catch {
      return 'each proof line must be a base64 hash';
    }
    if (hash.length !== 32) return 'each proof line must be a base64 32-byte hash';
    proof.push(hash);
  }
  return { oldSize: Number(old[1]), proof, note: text.slice(blank + 2) };
}

/**
 * A C2SP tlog witness: cosigns a checkpoint only when it is signed by a trusted log key and is
 * provably an append-only extension of the last checkpoint it cosigned for that origin, so two
 * different histories of one log can never both carry its cosignature.
 */
export class Witness {
  /** Requests run one at a time: checking the old size and persisting the new head is atomic. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: WitnessOptions) {}

  addCheckpoint(body: string): Promise<WitnessAnswer> {
    const run = this.queue.then(() => this.add(body));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private keysFor(origin: string): NoteVerifier[] {
    return this.options.logKeys.filter((k) => origin === k.name || origin.startsWith(`${k.name}/`));
  }

  private add(text: string): WitnessAnswer {
    const req = parseRequest(text);
    if (typeof req === 'string') return answer(400, req);
    const origin = req.note.slice(0, req.note.indexOf('\n'));
    const keys = this.keysFor(origin);
    if (keys.length === 0) return answer(404, 'unknown log origin');
    // Signatures from keys the witness does not trust (other witnesses, say) are ignored.
    const signed = keys.map((k) => verifyNote(req.note, k)).find((v) => v.verified);
    if (!signed?.body) return answer(403, 'the checkpoint is not signed by a trusted key of this log');
    let checkpoint: ReturnType<typeof parseCheckpoint>;
    try {
      checkpoint = parseCheckpoint(signed.body);
    } catch {
      return answer(400, 'malformed checkpoint');
    }
    if (req.oldSize > checkpoint.size) return answer(400, 'old size is larger than the checkpoint size');

    const newRoot = base64.encode(checkpoint.rootHash);
    // The comparison with the stored head and the write of the new one are one step of the store,
    // under its lock, against the state as it is on disk now (another writer may have moved it).
    const refused = this.options.state.advance(origin, (known): StateDecision<WitnessAnswer | undefined> => {
      const knownSize = known?.size ?? 0;
      // Rollbacks and clients out of date land here: the answer tells them where the witness is.
      if (req.oldSize !== knownSize) return { result: answer(409, String(knownSize), 'text/x.tlog.size') };
      // Every tree extends the empty one, so from size 0 there is nothing to prove.
      if (known && knownSize > 0 && req.oldSize === checkpoint.size) {
        if (known.rootHash !== newRoot || req.proof.length > 0) return { result: answer(409, String(knownSize), 'text/x.tlog.size') };
      } else if (known && knownSize > 0) {
        if (!verifyConsistency(known.size, checkpoint.size, req.proof, base64.decode(known.rootHash), checkpoint.rootHash)) {
          return { result: answer(422, 'the consistency proof does not verify') };
        }
      } else if (req.proof.length > 0) {
        return { result: answer(422, 'the consistency proof must be empty from size 0') };
      }
      return { store: { size: checkpoint.size, rootHash: newRoot }, result: undefined };
    });
    if (refused) return refused;
    const timestamp = Math.floor(this.options.clock.now().getTime() / 1000);
    return { status: 200, contentType: TEXT, body: cosign(signed.body, timestamp, this.options.signer) };
  }
}
