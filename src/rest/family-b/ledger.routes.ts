import { type Request, Router } from 'express';
import { invalidInput } from '../../errors';
import type { AuthService } from '../../services/auth.service';
import type { LedgerService } from '../../services/ledger.service';
import { actorOf } from '../context';
import { authorize } from '../middleware/authorize';
import { pathParam } from '../validate';

const DECIMAL_RE = /^(0|[1-9][0-9]{0,15})$/;

/** `?name=<decimal>`: absent is undefined; anything but a plain non-negative safe integer is a 400. */
function integerQuery(req: Request, name: string): number | undefined {
  const v = req.query[name];
  if (v === undefined) return undefined;
  const n = typeof v === 'string' && DECIMAL_RE.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n)) throw invalidInput(`${name} must be a non-negative integer`, [{ field: name, message: 'non-negative integer' }]);
  return n;
}

function requiredIntegerQuery(req: Request, name: string): number {
  const n = integerQuery(req, name);
  if (n === undefined) throw invalidInput(`the ${name} query parameter is required`, [{ field: name, message: 'required' }]);
  return n;
}

/** Transparency logs: public to every authenticated caller (see LedgerService). */
export function ledgerRoutes(auth: AuthService, ledger: LedgerService): Router {
  const r = Router();
  const anyScope = authorize(auth, []);

  r.get('/ledger/:logId/checkpoint', anyScope, async (req, res) => {
    res.json(await ledger.checkpoint(actorOf(res), pathParam(req, 'logId')));
  });

  r.get('/ledger/:logId/proof/inclusion', anyScope, async (req, res) => {
    const leafIndex = requiredIntegerQuery(req, 'leafIndex');
    const treeSize = integerQuery(req, 'treeSize');
    res.json(await ledger.inclusionProof(actorOf(res), pathParam(req, 'logId'), leafIndex, treeSize));
  });

  r.get('/ledger/:logId/proof/consistency', anyScope, async (req, res) => {
    const from = requiredIntegerQuery(req, 'from');
    const to = integerQuery(req, 'to');
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
    const start = requiredIntegerQuery(req, 'start');
    const end = requiredIntegerQuery(req, 'end');
    res.json(await ledger.leaves(actorOf(res), pathParam(req, 'logId'), start, end));
  });

  return r;
}
