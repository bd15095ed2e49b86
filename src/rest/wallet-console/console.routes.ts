import { Router } from 'express';
import { walletConsole, walletConsoleConfigurations, walletConsoleRequestQr } from '../../contracts/wallet-console';
import type { AuthService } from '../../services/auth.service';
import type { WalletConsoleService } from '../../services/wallet-console.service';
import { AppError } from '../../errors';
import { actorOf } from '../context';
import { authorize } from '../middleware/authorize';
import { pathParam } from '../validate';
import { CONSOLE_ASSET_PREFIX, CONSOLE_CSP, CONSOLE_CSS, CONSOLE_HTML } from './page';
import { CONSOLE_JS } from './console-script';

/** What the page's files are served with: the page runs only this host's script and style, and talks only to this host. */
function pageHeaders(res: import('express').Response): void {
  res.setHeader('Content-Security-Policy', CONSOLE_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
}

/** The assets by name: a request never chooses a path. */
const ASSETS: Readonly<Record<string, { type: string; body: string }>> = {
  'console.js': { type: 'text/javascript', body: CONSOLE_JS },
  'console.css': { type: 'text/css', body: CONSOLE_CSS },
};

/**
 * The operator page and its two files, without an API key (like GraphiQL and /docs: the same bytes
 * for everyone, nothing of a tenant). Everything the page shows comes from keyed API calls the
 * page makes with the key entered in its bar.
 */
export function walletConsolePageRoutes(): Router {
  const r = Router();
  r.get(walletConsole.paths[0]!, (_req, res) => {
    pageHeaders(res);
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(CONSOLE_HTML);
  });
  r.get(`${CONSOLE_ASSET_PREFIX}/:file`, (req, res, next) => {
    const name = String(req.params['file']);
    if (!Object.hasOwn(ASSETS, name)) return next(new AppError('NOT_FOUND', 'Not found'));
    const asset = ASSETS[name]!;
    pageHeaders(res);
    res.setHeader('Cache-Control', 'no-cache');
    res.type(asset.type).send(asset.body);
  });
  return r;
}

/** The page's keyed reads (contracts/wallet-console.ts); mounted with the REST routes for their envelope. */
export function walletConsoleApiRoutes(auth: AuthService, page: WalletConsoleService): Router {
  const r = Router();
  r.get(walletConsoleConfigurations.paths[0]!, authorize(auth, ['issuer']), async (_req, res) => {
    res.json(await page.configurations(actorOf(res)));
  });
  r.get(walletConsoleRequestQr.paths[0]!, authorize(auth, ['verifier']), async (req, res) => {
    res.json(await page.presentationRequestQr(actorOf(res), pathParam(req, 'requestId')));
  });
  return r;
}
