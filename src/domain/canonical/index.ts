export { canonicalize, canonicalBytes } from './jcs';
