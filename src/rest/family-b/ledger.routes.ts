import { Router } from 'express';
import { invalidInput } from '../../errors';
import type { AuthService } from '../../services/auth.service';
import type { LedgerService } from '../../services/ledger.service';
import { actorOf } from '../context';
import { authorize } from '../middleware/authorize';
import { pathParam } from '../validate';
import { integerQueryOf, requiredIntegerQueryOf } from '../middleware/validate-query';
import { ledgerConsistency, ledgerInclusion, ledgerLeaves } from '../../contracts/family-b/ledger';

const DECIMAL_RE = /^(0|[1-9][0-9]{0,15})$/;

/** Transparency logs: public to every authenticated caller (see LedgerService). */
export function ledgerRoutes(auth: AuthService, ledger: LedgerService): Router {
  const r = Router();
  const anyScope = authorize(auth, []);
  const query = {
    leafIndex: requiredIntegerQueryOf(ledgerInclusion, 'leafIndex'),
    treeSize: integerQueryOf(ledgerInclusion, 'treeSize'),
    from: requiredIntegerQueryOf(ledgerConsistency, 'from'),
    to: integerQueryOf(ledgerConsistency, 'to'),
    start: requiredIntegerQueryOf(ledgerLeaves, 'start'),
    end: requiredIntegerQueryOf(ledgerLeaves, 'end'),
  };

  r.get('/ledger/:logId/checkpoint', anyScope, async (req, res) => {
    res.json(await ledger.checkpoint(actorOf(res), pathParam(req, 'logId')));
  });

  r.get('/ledger/:logId/proof/inclusion', anyScope, async (req, res) => {
    const leafIndex = query.leafIndex(req);
    const treeSize = query.treeSize(req);
    res.json(await ledger.inclusionProof(actorOf(res), pathParam(req, 'logId'), leafIndex, treeSize));
  });

  r.get('/ledger/:logId/proof/consistency', anyScope, async (req, res) => {
    const from = query.from(req);
    const to = query.to(req);
    res.json(await ledger.consistencyProof(actorOf(res), pathParam(req, 'logId'), from, to));
  });

  r.get('/ledger/:logId/entries/:entryHash', anyScope, async (req, res) => {
    res.json(await ledger.entry(actorOf(res), pathParam(req, 'logId'), pathParam(req, 'entryHash')));
  });

  r.get('/ledger/:logId/anchors/:treeSize', anyScope, async (req, res) => {
    const raw = pathParam(req, 'treeSize');
    if (!DECIMAL_RE.test(raw)) throw invalidInput('treeSize must be a non-negative integer', [{ field: 'treeSize', message: 'non-negative integer' }]);
    res.json(await ledger.anchor(actorOf(res), pathParam(req, 'logId'), Number(raw)));
  });

  r.get('/ledger/:logId/leaves', anyScope, async (req, res) => {
    const start = query.start(req);
    const end = query.end(req);
    res.json(await ledger.leaves(actorOf(res), pathParam(req, 'logId'), start, end));
  });

  return r;
}
