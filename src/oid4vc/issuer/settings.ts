/** The issuer's policies are configuration (src/config/oid4vci.ts); the use-cases read them from here. */
export { DEFAULT_OID4VCI_SETTINGS, type Oid4vciSettings } from '../../config/oid4vci';
