/** W3C Bitstring Status List v1.0 for src/vc: codec, list credentials and entries, dereferencing, checks. */
export { encodeStatusList, decodeStatusList, statusValue, withStatusBit, MIN_STATUS_LIST_BYTES } from './codec';
export { buildStatusListCredential, statusListEntry, BITSTRING_STATUS_LIST_CONTEXT, type StatusListCredentialBuild } from './list-credential';
export { createHttpStatusListSource, routeStatusListSource, statusSourceOptionsFromConfig, STATUS_LIST_MEDIA_TYPES, type HttpStatusListSourceOptions } from './http-source';
export { checkCredentialStatus, type StatusCheckDeps, type StatusCheckOutcome } from './check';
