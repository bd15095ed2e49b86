import { RequestBudgets, withBudget } from '../../vc/net/request-budget';
import type { VcVerificationResult } from './problems';
import type { VcVerifyService, VerifyCredentialInput, VerifyPresentationInput } from './verify.service';

/**
 * VC-API verification as the transports call it: each call runs inside the budget of its
 * transport request (habit 14). `scope` is an object that lives exactly as long as that request:
 * the express request for REST, the per-request context for GraphQL, so the aliased fields of
 * one GraphQL operation share one budget rather than each bringing its own. Without a scope (the
 * CLI, scripts) each call gets a fresh budget.
 */
export interface VerificationService {
  verifyCredential(input: VerifyCredentialInput, scope?: object): Promise<VcVerificationResult>;
  verifyPresentation(input: VerifyPresentationInput, scope?: object): Promise<VcVerificationResult>;
}

export function withRequestBudgets(service: VcVerifyService, budgets: RequestBudgets): VerificationService {
  return {
    verifyCredential: (input, scope) => withBudget(budgets.for(scope), () => service.verifyCredential(input)),
    verifyPresentation: (input, scope) => withBudget(budgets.for(scope), () => service.verifyPresentation(input)),
  };
}
