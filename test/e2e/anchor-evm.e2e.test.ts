import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Address, type Hex, createPublicClient, http, parseAbiItem } from 'viem';
import { ANCHOR_ABI } from '../../src/anchor/evm/artifact';
import { deployAnchorContract } from '../../src/anchor/evm/deploy';
import { EvmAnchorAdapter } from '../../src/anchor/evm/evm-adapter';
import { AnchorRejected } from '../../src/anchor/anchor.port';
import { Anvil, ANVIL_KEY } from '../support/anvil';
import { type FbParty, fbParty } from '../support/family-b-fixtures';
import { anchorStatus, expectFailedAttempts, stripNulls, until } from '../support/anchor-status';
import { useTestServer } from '../support/harness';
import { request } from '../support/http';
import { graphqlFamilyB } from '../support/family-b-transports';
import { unwrap } from '../support/family-a-fixtures';

type Json = Record<string, any>;
const dir = mkdtempSync(path.join(os.tmpdir(), 'credgate-anvil-'));
const anvil = new Anvil(path.join(dir, 'state.json'));
let contract: Address;

// Registered before the server's hooks: the chain and the contract exist when the service starts.
beforeAll(async () => {
  await anvil.start();
  contract = await deployAnchorContract(anvil.url, ANVIL_KEY);
});
afterAll(async () => {
  await anvil.stop();
  rmSync(dir, { recursive: true, force: true });
});

const server = useTestServer(() => ({
  env: {
    anchor: {
      mode: 'evm',
      evm: { rpcUrl: anvil.url, contract, privateKey: ANVIL_KEY },
      // Short delays so the outage below heals within the test; the production defaults are in src/anchor/relay.ts.
      relay: { pollMs: 100, baseDelayMs: 200, maxDelayMs: 1000, leaseMs: 30_000 },
    },
  },
}));

const chain = () => createPublicClient({ transport: http(anvil.url) });


/** Once a status is settled, both transports must report the same. */
async function sameThroughBoth(key: string, logId: string, treeSize: number): Promise<Json> {
  const rest = await anchorStatus(server, key, logId, treeSize, 'REST');
  expect(await anchorStatus(server, key, logId, treeSize, 'GraphQL')).toEqual(rest);
  return rest;
}



async function anchoredEvents(): Promise<{ logId: string; size: bigint; root: Hex }[]> {
  const logs = await chain().getLogs({ address: contract, event: parseAbiItem('event Anchored(bytes32 indexed logKey, uint64 indexed size, bytes32 root, string logId)'), fromBlock: 0n, toBlock: 'latest' });
  return logs.map((l) => ({ logId: l.args.logId!, size: l.args.size!, root: l.args.root! }));
}

const rootHex = (b64: string): Hex => `0x${Buffer.from(b64, 'base64').toString('hex')}`;

describe('EVM anchoring against a local anvil chain', () => {
  let party: FbParty;
  let first: Json;

  beforeAll(async () => {
    party = await fbParty(server, 'REST');
  });

  test.each(['REST', 'GraphQL'])('issue -> the relay anchors the signed head -> verification through %s shows the checked receipt', async (name) => {
    const t = name === 'REST' ? party.t : graphqlFamilyB(server);
    first ??= await party.issue();
    // The first verification signs the head that covers the credential; its outbox row was written with it.
    const v0 = unwrap(await t.verify(party.keys.verifier, first));
    const { logId, treeSize } = v0.anchor!;
    expect(['pending', 'anchored']).toContain(v0.anchor!.anchoring!['status']);

    await until('the anchor', () => anchorStatus(server, party.keys.verifier, logId, treeSize, name as 'REST' | 'GraphQL'), (s) => s['status'] === 'anchored');
    const status = await sameThroughBoth(party.keys.verifier, logId, treeSize);
    const checkpoint = await request(server.baseUrl, 'GET', `/ledger/${logId}/checkpoint`, { headers: { 'x-api-key': party.keys.verifier } });
    expect(status).toMatchObject({
      logId,
      treeSize,
      rootHash: checkpoint.json.rootHash,
      status: 'anchored',
      attempts: 1,
      receipt: { adapter: 'evm', network: 'evm:31337', target: contract, txId: expect.stringMatching(/^0x[0-9a-f]{64}$/), blockNumber: expect.stringMatching(/^\d+$/), logId, treeSize, rootHash: checkpoint.json.rootHash },
      check: { status: 'valid' },
    });
    // Independently of the service: the contract holds the checkpoint's root.
    const onChain = await chain().readContract({ address: contract, abi: ANCHOR_ABI, functionName: 'rootOf', args: [logId, BigInt(treeSize)] });
    expect(onChain).toBe(rootHex(checkpoint.json.rootHash));

    const v = unwrap(await t.verify(party.keys.verifier, first));
    expect(v.verified).toBe(true);
    expect(stripNulls(v.anchor!.anchoring)).toEqual(status);
  });

  test('a size that was never a signed head is 404; a bad size is 400; an unknown log is 404 (REST and GraphQL)', async () => {
    const key = party.keys.verifier;
    const topic = unwrap(await party.t.verify(key, first)).anchor!.logId;
    expect((await request(server.baseUrl, 'GET', `/ledger/${topic}/anchors/999999`, { headers: { 'x-api-key': key } })).status).toBe(404);
    expect((await request(server.baseUrl, 'GET', `/ledger/${topic}/anchors/-1`, { headers: { 'x-api-key': key } })).status).toBe(400);
    expect((await request(server.baseUrl, 'GET', `/ledger/0.0.999999/anchors/1`, { headers: { 'x-api-key': key } })).status).toBe(404);
    await expect(server.sdk(key).ledgerAnchor({ logId: topic, treeSize: 999999 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(server.sdk(key).ledgerAnchor({ logId: topic, treeSize: -1 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(server.sdk(key).ledgerAnchor({ logId: '0.0.999999', treeSize: 1 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  test('the chain goes down: new heads stay pending with the error recorded; it comes back: they anchor once each', async () => {
    const key = party.keys.verifier;
    await anvil.stop();
    const issued = [await party.issue(), await party.issue()];
    const heads: { logId: string; treeSize: number }[] = [];
    for (const c of issued) {
      const a = unwrap(await party.t.verify(key, c)).anchor!;
      expect(a.anchoring!['status']).toBe('pending');
      heads.push({ logId: a.logId, treeSize: a.treeSize });
    }
    await expectFailedAttempts(server, key, heads);

    await anvil.start(); // same port, same state file: the same chain and contract
    for (const h of heads) {
      await until('the anchor after the outage', () => anchorStatus(server, key, h.logId, h.treeSize), (x) => x['status'] === 'anchored');
      expect(await sameThroughBoth(key, h.logId, h.treeSize)).toMatchObject({ status: 'anchored', check: { status: 'valid' } });
    }
    // Every outbox row (the heads of every log the issuances touched) gets anchored, and the chain
    // holds exactly one event per row: no duplicates.
    const rows = await until('every outbox row anchored', () => server.app.db.prisma.anchorOutbox.findMany(), (all) => all.every((r) => r.status === 'anchored'));
    expect(rows.length).toBeGreaterThanOrEqual(heads.length + 1);
    const events = await anchoredEvents();
    expect(events).toHaveLength(rows.length);
    expect(new Set(events.map((e) => `${e.logId}@${e.size}`)).size).toBe(rows.length);
    for (const r of rows) {
      expect(events).toContainEqual({ logId: r.logId, size: BigInt(r.treeSize), root: `0x${Buffer.from(r.rootHash).toString('hex')}` });
    }
    // The anchoring account's key never reached the logs.
    expect(server.logs.text()).not.toContain(ANVIL_KEY.slice(2));
  });

  test('the adapter is idempotent on (logId, size): a resubmission adds no event, a different root is refused as a fork', async () => {
    const adapter = new EvmAnchorAdapter({ rpcUrl: anvil.url, contract, privateKey: ANVIL_KEY });
    const cp = { logId: '0.0.424242', treeSize: 7, rootHash: Buffer.alloc(32, 9).toString('base64') };
    expect(await adapter.find(cp)).toBeNull();
    const before = (await anchoredEvents()).length;
    const receipt = await adapter.submit(cp);
    expect(await adapter.submit(cp)).toEqual(receipt);
    expect(await adapter.find(cp)).toEqual(receipt);
    expect(await anchoredEvents()).toHaveLength(before + 1);
    await expect(adapter.submit({ ...cp, rootHash: Buffer.alloc(32, 8).toString('base64') })).rejects.toBeInstanceOf(AnchorRejected);
    expect(await adapter.checkReceipt(receipt, cp)).toEqual({ status: 'valid' });
    expect(await adapter.checkReceipt(receipt, { ...cp, rootHash: Buffer.alloc(32, 8).toString('base64') })).toMatchObject({ status: 'invalid' });
    expect(await adapter.checkReceipt(receipt, { ...cp, treeSize: 8 })).toMatchObject({ status: 'invalid' });
    expect(await adapter.checkReceipt({ ...receipt, txId: `0x${'ab'.repeat(32)}` }, cp)).toMatchObject({ status: 'invalid' });
    // Another account cannot anchor through the contract (only its owner can).
    const stranger = new EvmAnchorAdapter({ rpcUrl: anvil.url, contract, privateKey: `0x${'11'.repeat(32)}` });
    await expect(stranger.submit({ ...cp, treeSize: 9 })).rejects.toBeInstanceOf(AnchorRejected);
    await adapter.close();
  });
});
