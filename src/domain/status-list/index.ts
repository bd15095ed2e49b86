/** W3C Bitstring Status List v1.0: bit lists, their encoding, list credentials and entries. Pure. */
export { Bitstring, MAX_BITSTRING_BYTES, MIN_BITSTRING_BITS, decodeList, encodeList } from './bitstring';
export {
  CREDENTIALS_V2_CONTEXT,
  STATUS_PURPOSES,
  type StatusListCredential,
  type StatusListCredentialInput,
  type StatusListEntry,
  type StatusListEntryInput,
  type StatusPurpose,
  buildStatusListCredential,
  buildStatusListEntry,
  parseStatusListIndex,
} from './status-list-credential';
export { type RandomIndex, markSlot, pickFreeSlot } from './allocation';
