/**
 * A mirror-node REST stub over a FakeHederaNode's state, serving the documented response shapes of
 * the Hedera Mirror Node REST API (v1) for the routes the adapter reads:
 *   GET /api/v1/topics/{topicId}/messages?sequencenumber=[op:]N&limit=&order=
 *   GET /api/v1/topics/{topicId}/messages/{sequenceNumber}
 *   GET /api/v1/topics/{topicId}              (topic info: memo, submit key; how operators find orphans)
 *   GET /api/v1/transactions/{transactionId}   (id as `0.0.x-seconds-nanos`)
 * Errors use the mirror's `{ _status: { messages: [{ message }] } }` body. stop()/start() keep the port.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeHederaNode, TopicMessageRecord } from './fake-node';
import { Restartable } from './restartable';

const ENTITY = /^\d+\.\d+\.\d+$/;

function messageJson(m: TopicMessageRecord): Record<string, unknown> {
  return {
    chunk_info: m.chunkInfo
      ? {
          initial_transaction_id: { account_id: m.chunkInfo.initialTransactionId.accountId, nonce: 0, scheduled: false, transaction_valid_start: m.chunkInfo.initialTransactionId.validStart },
          number: m.chunkInfo.number,
          total: m.chunkInfo.total,
        }
      : null,
    consensus_timestamp: m.consensusTimestamp,
    message: m.message.toString('base64'),
    payer_account_id: m.payerAccountId,
    running_hash: m.runningHash.toString('base64'),
    running_hash_version: 3,
    sequence_number: Number(m.sequenceNumber),
    topic_id: m.topicId,
  };
}

/** `gt:5`, `5`, `eq:5` … → a predicate on sequence numbers (the mirror's operator syntax). */
function sequenceFilter(values: readonly string[]): ((n: bigint) => boolean) | null {
  const tests: ((n: bigint) => boolean)[] = [];
  for (const raw of values) {
    const m = /^(?:(eq|ne|gt|gte|lt|lte):)?(\d+)$/.exec(raw);
    if (!m) return null;
    const v = BigInt(m[2]!);
    const op = m[1] ?? 'eq';
    tests.push({ eq: (n: bigint) => n === v, ne: (n: bigint) => n !== v, gt: (n: bigint) => n > v, gte: (n: bigint) => n >= v, lt: (n: bigint) => n < v, lte: (n: bigint) => n <= v }[op]!);
  }
  return (n) => tests.every((t) => t(n));
}

export class MirrorStub extends Restartable<http.Server> {
  /** Requests served (tests use it to see that the adapter read the mirror). */
  requests = 0;
  /** While set, the mirror lags: messages and transactions after this many stored messages are not shown yet. */
  private visibleMessages: number | null = null;

  /** Freezes what the mirror shows (a lagging mirror) until release(). */
  hold(): void {
    this.visibleMessages = this.node.allMessages().length;
  }

  release(): void {
    this.visibleMessages = null;
  }

  private visible(): readonly TopicMessageRecord[] {
    const all = this.node.allMessages();
    return this.visibleMessages === null ? all : all.slice(0, this.visibleMessages);
  }

  private constructor(
    private readonly node: FakeHederaNode,
    port: number,
  ) {
    super(port);
  }

  static async start(node: FakeHederaNode, port = 0): Promise<MirrorStub> {
    const stub = new MirrorStub(node, port);
    await stub.start();
    return stub;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  protected async listen(port: number): Promise<{ server: http.Server; port: number }> {
    const server = http.createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return { server, port: (server.address() as AddressInfo).port };
  }

  protected async close(server: http.Server): Promise<void> {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.requests += 1;
    const url = new URL(req.url ?? '/', 'http://mirror');
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const fail = (status: number, message: string): void => send(status, { _status: { messages: [{ message }] } });
    if (req.method !== 'GET') return fail(405, 'Method not allowed');
    const parts = url.pathname.split('/').filter((p) => p !== '');
    if (parts[0] !== 'api' || parts[1] !== 'v1') return fail(404, 'Not found');
    if (parts[2] === 'topics' && parts.length === 4) {
      const topicId = parts[3] ?? '';
      if (!ENTITY.test(topicId)) return fail(400, 'Invalid parameter: topic.id');
      const memo = this.node.topicMemo(topicId);
      if (memo === undefined) return fail(404, 'Not found');
      const submitKey = this.node.topicSubmitKey(topicId);
      const created = this.node.transactionRecords().find((t) => t.name === 'CONSENSUSCREATETOPIC' && t.entityId === topicId);
      return send(200, {
        admin_key: null,
        auto_renew_account: null,
        auto_renew_period: 7776000,
        created_timestamp: created?.consensusTimestamp ?? null,
        deleted: false,
        memo,
        submit_key: submitKey ? { _type: submitKey.length === 32 ? 'ED25519' : 'ECDSA_SECP256K1', key: Buffer.from(submitKey).toString('hex') } : null,
        timestamp: { from: created?.consensusTimestamp ?? null, to: null },
        topic_id: topicId,
      });
    }
    if (parts[2] === 'topics' && parts[4] === 'messages' && parts.length <= 6) {
      const topicId = parts[3] ?? '';
      if (!ENTITY.test(topicId)) return fail(400, 'Invalid parameter: topic.id');
      if (!this.node.topicIds().includes(topicId)) return fail(404, 'No such topic id - ' + topicId);
      const all = this.visible().filter((m) => m.topicId === topicId);
      if (parts.length === 6) {
        const seq = parts[5]!;
        if (!/^\d+$/.test(seq)) return fail(400, 'Invalid parameter: sequencenumber');
        const found = all.find((m) => m.sequenceNumber === BigInt(seq));
        return found ? send(200, messageJson(found)) : fail(404, 'Not found');
      }
      const filter = sequenceFilter(url.searchParams.getAll('sequencenumber'));
      if (!filter) return fail(400, 'Invalid parameter: sequencenumber');
      const limitRaw = url.searchParams.get('limit') ?? '25';
      const order = url.searchParams.get('order') ?? 'asc';
      if (!/^\d+$/.test(limitRaw) || Number(limitRaw) < 1 || Number(limitRaw) > 100) return fail(400, 'Invalid parameter: limit');
      if (order !== 'asc' && order !== 'desc') return fail(400, 'Invalid parameter: order');
      const limit = Number(limitRaw);
      const matching = all.filter((m) => filter(m.sequenceNumber));
      if (order === 'desc') matching.reverse();
      const page = matching.slice(0, limit);
      const last = page.at(-1);
      const next = matching.length > limit && last
        ? `/api/v1/topics/${topicId}/messages?limit=${limit}&order=${order}&sequencenumber=${order === 'asc' ? 'gt' : 'lt'}:${last.sequenceNumber}`
        : null;
      return send(200, { messages: page.map(messageJson), links: { next } });
    }
    if (parts[2] === 'transactions' && parts.length === 4) {
      const m = /^(\d+\.\d+\.\d+)-(\d+)-(\d+)$/.exec(parts[3] ?? '');
      if (!m) return fail(400, 'Invalid Transaction id. Please use "shard.realm.num-sss-nnn" format where sss are seconds and nnn are nanoseconds');
      const id = `${m[1]}@${m[2]}.${m[3]!.padStart(9, '0')}`;
      const tx = this.node.transaction(id);
      const hidden = tx?.name === 'CONSENSUSSUBMITMESSAGE' && !this.visible().some((v) => v.transactionId === id);
      if (!tx || hidden) return fail(404, 'Not found');
      return send(200, {
        transactions: [
          {
            charged_tx_fee: 0,
            consensus_timestamp: tx.consensusTimestamp,
            entity_id: tx.entityId,
            memo_base64: Buffer.from(tx.memo).toString('base64'),
            name: tx.name,
            node: this.node.nodeAccountId,
            result: 'SUCCESS',
            scheduled: false,
            transaction_id: `${tx.payerAccountId}-${tx.validStart.seconds}-${String(tx.validStart.nanos).padStart(9, '0')}`,
            valid_start_timestamp: `${tx.validStart.seconds}.${String(tx.validStart.nanos).padStart(9, '0')}`,
          },
        ],
      });
    }
    return fail(404, 'Not found');
  }
}
