import { ConfigError } from '../config/settings';
import type { AnchorConfig } from '../config/anchor';
import type { AnchorAdapter } from './anchor.port';
import type { HederaSettings } from './hedera/config';

/**
 * The configured adapter, imported on demand: with CREDGATE_ANCHOR=none nothing of viem (or the
 * Hedera SDK) is ever loaded, and an install that omitted those optional dependencies still runs.
 */
/**
 * What a per-DID Hedera adapter asks the service about a log id: the DID whose entity it is
 * (credential or template topic, or document file) on this network, with the DID's current file
 * document for a file. Null: not a per-DID entity on this network (such logs go to the shared topic).
 */
export type LogEntityLookup = (logId: string, network: string) => Promise<{ readonly kind: 'topic' } | { readonly kind: 'file'; readonly document: Uint8Array } | null>;

export async function loadAnchorAdapter(config: AnchorConfig, hedera?: HederaSettings, entityOf?: LogEntityLookup): Promise<AnchorAdapter | null> {
  switch (config.mode) {
    case 'none':
      return null;
    case 'evm': {
      if (!config.evm) throw new ConfigError('CREDGATE_ANCHOR=evm needs the CREDGATE_EVM_* settings');
      const { createEvmAnchorAdapter } = await importAdapter(() => import('./evm/evm-adapter.js'), 'viem');
      return createEvmAnchorAdapter(config.evm);
    }
    case 'hedera': {
      if (!hedera) throw new ConfigError('CREDGATE_ANCHOR=hedera needs the CREDGATE_HEDERA_* settings');
      const perDid = hedera.perDid ?? true;
      // Without per-DID topics every log publishes to one topic (messages name their log).
      if (!perDid && !hedera.topicId) throw new ConfigError('CREDGATE_ANCHOR=hedera with CREDGATE_HEDERA_PER_DID=false needs CREDGATE_HEDERA_TOPIC_ID');
      if (perDid && !entityOf) throw new ConfigError('CREDGATE_HEDERA_PER_DID=true needs the service to name each log\'s entity');
      const { createHederaAnchor } = await importAdapter(() => import('./hedera/index.js'), '@hashgraph/sdk');
      if (!perDid) return createHederaAnchor(hedera);
      let network = '';
      const adapter = await createHederaAnchor({
        ...hedera,
        // A DID's topics are its log ids. Logs of DIDs made before per-DID mode (or on another
        // network) have no topic of their own: they go to the shared topic when one is set.
        topicFor: async (logId) => ((await entityOf!(logId, network))?.kind === 'topic' ? logId : null),
        fileFor: async (logId) => {
          const entity = await entityOf!(logId, network);
          return entity?.kind === 'file' ? entity.document : null;
        },
      });
      network = adapter.network;
      return adapter;
    }
  }
}

/** Turns a missing optional dependency into a one-line configuration error. */
async function importAdapter<T>(load: () => Promise<T>, dependency: string): Promise<T> {
  try {
    return await load();
  } catch (e) {
    if ((e as { code?: string }).code === 'MODULE_NOT_FOUND' || (e as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') {
      throw new ConfigError(`CREDGATE_ANCHOR needs the optional dependency ${dependency}: npm install ${dependency}`);
    }
    throw e;
  }
}
