/** IETF Token Status List (draft-ietf-oauth-status-list): the list, its signed token, and the check. */
export { type BitsPerStatus, isBitsPerStatus, capacityOf, statusAt, withStatus, encodeLst, decodeLst } from './bits';
export {
  signStatusListToken,
  readStatusListToken,
  STATUS_LIST_JWT_TYP,
  STATUS_LIST_JWT_MEDIA_TYPE,
  TOKEN_STATUS,
  type StatusListTokenInput,
  type StatusListTokenContents,
  type ReadStatusListTokenOptions,
} from './token';
export { createHttpStatusListTokenSource, statusListTokenSourceOptionsFromConfig, type StatusListTokenSource, type HttpStatusListTokenSourceOptions } from './http-source';
export { createTokenStatusChecker, DEFAULT_MAX_TOKEN_LIST_BYTES, type OwnTokenStatusLists, type TokenStatusCheckerOptions } from './check';
