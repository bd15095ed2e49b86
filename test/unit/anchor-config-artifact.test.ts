import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, parseConfig } from '../../src/config';
import { loadAnchorAdapter } from '../../src/anchor/load-adapter';

const ROOT = path.resolve(__dirname, '../..');
const KEY = `0x${'ab'.repeat(32)}`;
const EVM = { CREDGATE_ANCHOR: 'evm', CREDGATE_EVM_RPC_URL: 'http://127.0.0.1:8545', CREDGATE_EVM_CONTRACT: `0x${'12'.repeat(20)}`, CREDGATE_EVM_PRIVATE_KEY: KEY };

describe('CREDGATE_ANCHOR configuration', () => {
  test('defaults to none; evm reads its three settings', () => {
    expect(parseConfig({}, '/srv').anchor).toEqual({ mode: 'none' });
    expect(parseConfig(EVM, '/srv').anchor).toEqual({ mode: 'evm', evm: { rpcUrl: EVM.CREDGATE_EVM_RPC_URL, contract: EVM.CREDGATE_EVM_CONTRACT, privateKey: KEY } });
  });

  test.each([
    [{ CREDGATE_ANCHOR: 'bitcoin' }, 'CREDGATE_ANCHOR must be one of none, evm, hedera'],
    [{ ...EVM, CREDGATE_EVM_RPC_URL: undefined }, 'CREDGATE_EVM_RPC_URL is required when CREDGATE_ANCHOR=evm'],
    [{ ...EVM, CREDGATE_EVM_RPC_URL: 'ws://x' }, 'CREDGATE_EVM_RPC_URL must be an http:// or https:// URL'],
    [{ ...EVM, CREDGATE_EVM_CONTRACT: '0x12' }, 'CREDGATE_EVM_CONTRACT must be a 0x-prefixed 20-byte address'],
    [{ ...EVM, CREDGATE_EVM_PRIVATE_KEY: `${KEY}00` }, 'CREDGATE_EVM_PRIVATE_KEY must be 0x followed by 64 hex digits'],
  ])('%j is refused: %s', (env, message) => {
    expect(() => parseConfig(env as NodeJS.ProcessEnv, '/srv')).toThrow(new ConfigError(message));
  });

  test('a refused private key is never echoed', () => {
    const bad = `0x${'cd'.repeat(31)}zz`;
    expect(() => parseConfig({ ...EVM, CREDGATE_EVM_PRIVATE_KEY: bad }, '/srv')).toThrow(expect.objectContaining({ message: expect.not.stringContaining('cdcd') }));
  });

  test('none loads no adapter; evm loads the viem adapter without touching the network; hedera is not in this build', async () => {
    expect(await loadAnchorAdapter({ mode: 'none' })).toBeNull();
    const evm = await loadAnchorAdapter(parseConfig(EVM, '/srv').anchor!);
    expect(evm).toMatchObject({ kind: 'evm', network: 'evm' });
    await expect(loadAnchorAdapter({ mode: 'hedera' })).rejects.toThrow(ConfigError);
  });
});

test('the committed contract artifact is what solc compiles from contracts/CredgateAnchor.sol today', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { compile } = require(path.join(ROOT, 'scripts', 'compile-contract.js')) as { compile: (fingerprint?: string) => string };
  const committed = readFileSync(path.join(ROOT, 'src', 'anchor', 'evm', 'artifact.ts'), 'utf8');
  const withoutFingerprint = committed
    .split('\n')
    .filter((l) => !l.startsWith('// inputs '))
    .join('\n');
  expect(withoutFingerprint).toBe(compile());
  expect(committed).toContain('"name": "Anchored"');
});
