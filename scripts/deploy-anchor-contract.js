#!/usr/bin/env node
// Deploys contracts/CredgateAnchor.sol with the anchoring account and prints its address for
// CREDGATE_EVM_CONTRACT. Reads CREDGATE_EVM_RPC_URL and CREDGATE_EVM_PRIVATE_KEY from the
// environment (never from the command line, where other users could read it). Needs `npm run build`.
'use strict';
const { deployAnchorContract } = require('../dist/anchor/evm/deploy.js');

const rpcUrl = process.env.CREDGATE_EVM_RPC_URL;
const key = process.env.CREDGATE_EVM_PRIVATE_KEY;
if (!rpcUrl || !key || !/^0x[0-9a-fA-F]{64}$/.test(key)) {
  process.stderr.write('set CREDGATE_EVM_RPC_URL and CREDGATE_EVM_PRIVATE_KEY (0x + 64 hex digits)\n');
  process.exit(2);
}
deployAnchorContract(rpcUrl, key).then(
  (address) => process.stdout.write(`${address}\n`),
  (e) => {
    process.stderr.write(`deploy failed: ${e.shortMessage ?? e.message}\n`);
    process.exit(1);
  },
);
