/**
 * The set-up of the e2e suites that run the service with CREDGATE_ANCHOR=hedera: a local fake
 * consensus node with one operator account and a mirror stub, and a test server anchoring to them.
 */
import type * as HederaSdk from '@hashgraph/sdk' with { 'resolution-mode': 'import' };
import { type HederaSettings, SecretKey } from '../../../src/anchor/hedera/config';
import { type TestServer, useTestServer } from '../harness';
import { FakeHederaNode } from './fake-node';
import { MirrorStub } from './mirror-stub';

export const HEDERA_OPERATOR = '0.0.1001';

/** What every suite's settings start from: the local network, its mirror and the operator. */
export type HederaBase = Pick<HederaSettings, 'network' | 'mirrorUrl' | 'operatorId' | 'operatorKey' | 'topicId'>;

export interface LocalHedera {
  readonly node: FakeHederaNode;
  readonly mirror: MirrorStub;
  /** Raw Ed25519 public key of the operator (the submit key of the entities the service creates). */
  readonly operatorPublicKey: Uint8Array;
  /** What `configure` returned: the settings the server runs with. */
  readonly settings: HederaSettings;
}

/**
 * Starts the network before the server and stops it before the server stops, as the suites did
 * by hand (call it at the top level, before hooks that use either). `configure` turns the base
 * settings into the server's, and may create entities first (e.g. a shared checkpoint topic).
 * Both returned objects stand for what `beforeAll` started.
 */
export function useHederaServer(configure: (base: HederaBase) => Promise<HederaSettings> | HederaSettings): { hedera: LocalHedera; server: TestServer } {
  let node: FakeHederaNode | undefined;
  let mirror: MirrorStub | undefined;
  let current: LocalHedera | undefined;
  beforeAll(async () => {
    const sdk: typeof HederaSdk = await import('@hashgraph/sdk');
    const operatorKey = sdk.PrivateKey.generateED25519();
    const operatorPublicKey = operatorKey.publicKey.toBytesRaw();
    node = await FakeHederaNode.start({ accounts: { [HEDERA_OPERATOR]: operatorPublicKey } });
    mirror = await MirrorStub.start(node);
    const base: HederaBase = { network: node.network, mirrorUrl: mirror.url, operatorId: HEDERA_OPERATOR, operatorKey: new SecretKey(operatorKey.toStringDer()), topicId: undefined };
    current = { node, mirror, operatorPublicKey, settings: await configure(base) };
  });
  afterAll(async () => {
    await mirror?.stop();
    await node?.stop();
  });
  const hedera = new Proxy({} as LocalHedera, {
    get(_target, key) {
      if (!current) throw new Error('useHederaServer: the network starts in beforeAll');
      return Reflect.get(current, key, current) as unknown;
    },
  });
  const server = useTestServer(() => ({
    env: {
      anchor: { mode: 'hedera', relay: { pollMs: 100, baseDelayMs: 200, maxDelayMs: 1000, leaseMs: 30_000 } },
      hedera: hedera.settings,
    },
  }));
  return { hedera, server };
}
