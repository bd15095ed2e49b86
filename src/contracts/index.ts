import type { Operation } from './operation';
import * as service from './service';
import * as user from './family-a/user';
import * as issuer from './family-a/issuer';
import * as schemas from './family-a/schemas';
import * as verifier from './family-a/verifier';
import * as image from './family-a/image';
import * as keysDids from './family-b/keys-dids';
import * as templates from './family-b/templates';
import * as credentials from './family-b/credentials';
import * as presentations from './family-b/presentations';
import * as ledger from './family-b/ledger';
import * as vcApi from './vc-api';
import * as oauth from './oauth';
import * as oid4vci from './oid4vci';
import * as oid4vp from './oid4vp';
import * as walletConsole from './wallet-console';

export type { Operation } from './operation';

const isOperation = (v: unknown): v is Operation => typeof v === 'object' && v !== null && 'method' in v && 'paths' in v && 'responses' in v;
const operationsOf = (...modules: readonly Record<string, unknown>[]): Operation[] => modules.flatMap((m) => Object.values(m).filter(isOperation));

/** Every documented REST operation (the contract test checks this list against the mounted routes). */
export const OPERATIONS: readonly Operation[] = operationsOf(service, user, issuer, schemas, verifier, image, keysDids, templates, credentials, presentations, ledger, vcApi, oauth, oid4vp, oid4vci, walletConsole);

export { service, user, issuer, schemas, verifier, image, keysDids, templates, credentials, presentations, ledger, vcApi, oauth, oid4vp, oid4vci, walletConsole };
