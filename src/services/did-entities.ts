import type { DidLedgerEntities } from '../anchor/anchor.port';
import type { DidEntityIds } from '../domain/ports';
import { RetryLaterError } from '../errors/retry-later';
import type { Logger } from '../logging/logger';

/** Log ids are `0.0.<n>`: an entity elsewhere (another shard or realm) cannot be a log id. */
const LOG_ID_RE = /^0\.0\.(0|[1-9][0-9]{0,18})$/;

/** Seconds a client waits before retrying a DID creation the ledger could not serve. */
const RETRY_AFTER_SECONDS = 5;

/**
 * Creates a new DID's entities on the ledger (per-DID Hedera mode) before the DID is stored: its
 * credential topic, its template topic and its document file, in parallel, then writes the
 * document into the file (the document names the file, so it can only be written once the file
 * exists). Bounded by a timeout; any failure answers SERVICE_UNAVAILABLE with Retry-After and the
 * caller stores nothing. Entities created before a failure stay on the ledger as orphans: their
 * memos (`credgate <did> …`) let an operator find them (docs/OPERATIONS.md, per-DID entities).
 */
export class DidEntityProvisioner {
  constructor(
    private readonly ledger: DidLedgerEntities,
    private readonly timeoutMs: number,
    private readonly logger?: Logger,
  ) {}

  get network(): string {
    return this.ledger.network;
  }

  async provision(did: string, documentFor: (ids: DidEntityIds) => Uint8Array): Promise<DidEntityIds & { readonly network: string }> {
    const created: string[] = [];
    const track = async (p: Promise<string>): Promise<string> => {
      const id = await p;
      created.push(id);
      return id;
    };
    const work = (async () => {
      const [topicId, templateTopicId, ledgerFileId] = await Promise.all([
        track(this.ledger.createTopic(`credgate ${did} credentials`)),
        track(this.ledger.createTopic(`credgate ${did} templates`)),
        track(this.ledger.createFile(new Uint8Array(), `credgate ${did} did-document`)),
      ]);
      const ids = { topicId, templateTopicId, ledgerFileId };
      for (const id of Object.values(ids)) {
        if (!LOG_ID_RE.test(id)) throw new Error(`the ledger created ${id}, which is not a log id 0.0.<n>`);
      }
      await this.ledger.updateFile(ledgerFileId, documentFor(ids));
      return ids;
    })();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the ledger did not create the DID's entities within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    try {
      const ids = await Promise.race([work, timeout]);
      return { ...ids, network: this.ledger.network };
    } catch (e) {
      // The late outcome of a timed-out attempt is only logged (its entities become orphans).
      work.then(
        (late) => this.logger?.warn({ did, network: this.ledger.network, orphans: Object.values(late) }, 'ledger entities created after the DID creation gave up (orphans)'),
        () => undefined,
      );
      this.logger?.warn({ did, network: this.ledger.network, orphans: created, err: (e as Error).message }, 'could not create the DID\'s ledger entities; the DID was not created');
      throw new RetryLaterError('SERVICE_UNAVAILABLE', 'the ledger could not create this DID\'s topics and document file; nothing was stored, retry later', RETRY_AFTER_SECONDS);
    } finally {
      clearTimeout(timer);
    }
  }
}
