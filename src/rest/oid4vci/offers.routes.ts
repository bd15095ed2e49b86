import { Router } from 'express';
import type { AuthService } from '../../services/auth.service';
import type { CredentialOffersService, IssuedCredentialsService } from '../../oid4vc/issuer';
import { CreateOfferBody, createOffer, getOffer, listOfferCredentials, listOffers, markOfferReady, revokeOffer } from '../../contracts/oid4vci';
import { actorOf } from '../context';
import { authorize } from '../middleware/authorize';
import { bodyOf, validateBody } from '../middleware/validate-body';
import { integerQueryOf, stringQueryOf } from '../middleware/validate-query';
import { pathParam } from '../validate';

const path = (op: { paths: readonly string[] }): string => op.paths[0]!;

/** The issuer-admin API of OpenID4VCI offers (API key, scope issuer); GraphQL has the same operations. */
export function oid4vciOfferRoutes(auth: AuthService, offers: CredentialOffersService, issued: IssuedCredentialsService): Router {
  const r = Router();
  const first = integerQueryOf(listOffers, 'first');
  const after = stringQueryOf(listOffers, 'after');
  r.post(path(createOffer), authorize(auth, ['issuer']), validateBody(createOffer), async (req, res) => {
    res.status(201).json(await offers.create(actorOf(res), bodyOf(req, CreateOfferBody)));
  });
  r.get(path(listOffers), authorize(auth, ['issuer']), async (req, res) => {
    const page = { first: first(req), after: after(req) };
    res.json(await offers.list(actorOf(res), { ...(page.first !== undefined ? { first: page.first } : {}), ...(page.after !== undefined ? { after: page.after } : {}) }));
  });
  r.get(path(getOffer), authorize(auth, ['issuer']), async (req, res) => {
    res.json(await offers.get(actorOf(res), pathParam(req, 'offerId')));
  });
  r.get(path(listOfferCredentials), authorize(auth, ['issuer']), async (req, res) => {
    res.json({ items: await issued.list(actorOf(res), pathParam(req, 'offerId')) });
  });
  r.delete(path(revokeOffer), authorize(auth, ['issuer']), async (req, res) => {
    res.json(await offers.revoke(actorOf(res), pathParam(req, 'offerId')));
  });
  r.post(path(markOfferReady), authorize(auth, ['issuer']), async (req, res) => {
    res.json(await offers.markReady(actorOf(res), pathParam(req, 'offerId')));
  });
  return r;
}
