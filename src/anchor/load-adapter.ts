import { ConfigError } from '../config/settings';
import type { AnchorConfig } from '../config/anchor';
import type { AnchorAdapter } from './anchor.port';
import type { HederaSettings } from './hedera/config';

/**
 * The configured adapter, imported on demand: with CREDGATE_ANCHOR=none nothing of viem (or the
 * Hedera SDK) is ever loaded, and an install that omitted those optional dependencies still runs.
 */
export async function loadAnchorAdapter(config: AnchorConfig, hedera?: HederaSettings): Promise<AnchorAdapter | null> {
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
      // Until DIDs get topics of their own on Hedera, every log publishes to one topic (messages name their log).
      if (!hedera.topicId) throw new ConfigError('CREDGATE_ANCHOR=hedera needs CREDGATE_HEDERA_TOPIC_ID');
      const { createHederaAnchor } = await importAdapter(() => import('./hedera/index.js'), '@hashgraph/sdk');
      return createHederaAnchor(hedera);
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
