/**
 * The service's formats: one registration line each (habit 13). Order is detection order: a format
 * whose shape is a special case of another's goes first (see FormatRegistry). To add a format,
 * write its folder (src/formats/<name>/ with an adapter implementing CredentialFormat, its vectors
 * and tamper tests) and add its line here; nothing else changes (docs/ARCHITECTURE.md "Formats").
 */
import { FormatRegistry } from './format-registry';
import { familyA } from './adapters/family-a';
import { familyB } from './adapters/family-b';
import { ecdsaRdfc2019, ed25519Signature2020, eddsaJcs2022, eddsaRdfc2022 } from './adapters/data-integrity';
import { vcJwt } from './adapters/vc-jwt';
import { sdJwtVc } from './adapters/sd-jwt-vc';
import { mdocFormat } from './mdoc/format';
import { bbs2023 } from './bbs-2023';

export { FormatRegistry };

export const formats = new FormatRegistry()
  .register(familyA)
  .register(familyB)
  .register(eddsaRdfc2022)
  .register(eddsaJcs2022)
  .register(ecdsaRdfc2019)
  .register(ed25519Signature2020)
  .register(sdJwtVc)
  .register(vcJwt)
  .register(mdocFormat)
  .register(bbs2023);
