/** VCDM 1.1 / 2.0 structure, validity period and issuance preparation (no JSON-LD processing). */
export { credentialVersion } from './version';
export { checkCredentialShape, checkPresentationShape } from './shape';
export { checkValidityPeriod } from './validity';
export { checkIssuableCredential, dateTimeStampOf, prepareCredentialForIssuance } from './issuance';
export {
  CREDENTIALS_V1_CONTEXT,
  CREDENTIALS_V2_CONTEXT,
  isDateTimeStamp,
  isJsonObject,
  isUrl,
  issuerIdOf,
  type VcVersion,
} from './values';
