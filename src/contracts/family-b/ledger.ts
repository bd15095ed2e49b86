import { Type } from '@sinclair/typebox';
import { JsonObject, pathParam } from '../common';
import { type Operation, type OperationSpec, type Parameter, operationGroup } from '../operation';

const TAG = 'Ledger (transparency logs)';
const logId = pathParam('logId', 'the log id (a DID’s topicId or templateTopicId)', '0.0.2002');
// Leaf indexes and tree sizes: any safe integer from 0 (the route reads them through this schema).
const integer = (name: string, description: string, required: boolean, example: number): Parameter => ({
  name,
  description,
  example,
  required,
  schema: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
});
const hash = 'b5bb9d8014a0f9b1d61e21e796d78dccdf1352f23cd32812f4850b878ae4944c';

const op = operationGroup('B', TAG);

function ledgerOp(id: string, suffix: string, summary: string, extra: Partial<OperationSpec>, example: unknown): Operation {
  return op('get', `/ledger/:logId/${suffix}`, id, {
    summary,
    scopes: [],
    responses: { 200: { description: summary, schema: JsonObject, example } },
    errors: [404],
    ...extra,
    pathParams: [logId, ...(extra.pathParams ?? [])],
  });
}

const checkpoint = { logId: '0.0.2002', treeSize: 3, rootHash: hash, checkpoint: 'credgate.example/ledger\n3\ntb…\n\n— credgate.example/ledger sig\n' };

export const ledgerCheckpoint = ledgerOp('ledgerCheckpoint', 'checkpoint', 'The signed checkpoint (tree head) of a log', {}, checkpoint);
export const ledgerInclusion = ledgerOp(
  'ledgerInclusionProof',
  'proof/inclusion',
  'An inclusion proof of a leaf',
  { query: [integer('leafIndex', 'the leaf', true, 0), integer('treeSize', 'the tree size (default: current)', false, 3)], errors: [400, 404] },
  { leafIndex: 0, treeSize: 3, proof: [hash] },
);
export const ledgerConsistency = ledgerOp(
  'ledgerConsistencyProof',
  'proof/consistency',
  'A consistency proof between two tree sizes',
  { query: [integer('from', 'the older tree size', true, 1), integer('to', 'the newer tree size (default: current)', false, 3)], errors: [400, 404] },
  { from: 1, to: 3, proof: [hash] },
);
export const ledgerEntry = ledgerOp(
  'ledgerEntry',
  'entries/:entryHash',
  'An entry by its hash, with its inclusion proof',
  { pathParams: [pathParam('entryHash', 'hex SHA-256 of the entry', hash)] },
  { entryHash: hash, leafIndex: 0, treeSize: 3, proof: [hash] },
);
export const ledgerLeaves = ledgerOp(
  'ledgerLeaves',
  'leaves',
  'A range of leaves [start, end)',
  { query: [integer('start', 'first leaf', true, 0), integer('end', 'one past the last leaf', true, 3)], errors: [400, 404] },
  { start: 0, end: 3, leaves: [hash] },
);
export const ledgerAnchor = ledgerOp(
  'ledgerAnchor',
  'anchors/:treeSize',
  'Anchoring of a signed head on the external ledger (CREDGATE_ANCHOR), its receipt re-checked',
  { pathParams: [pathParam('treeSize', 'the size of a signed head', '3')], errors: [400, 404] },
  {
    logId: '0.0.2002',
    treeSize: 3,
    rootHash: 'tbudgBSg+bHWHiHnlteNzN8TUvI80ygS9IULh4rklEw=',
    status: 'anchored',
    attempts: 1,
    receipt: { adapter: 'evm', network: 'evm:31337', txId: `0x${hash}`, target: '0x5fbdb2315678afecb367f032d93f642f64180aa3', blockNumber: '2', logIndex: 0, logId: '0.0.2002', treeSize: 3, rootHash: 'tbudgBSg+bHWHiHnlteNzN8TUvI80ygS9IULh4rklEw=' },
    lastError: null,
    check: { status: 'valid' },
  },
);
