/** VCDM 2.0 §5.3 Integrity of Related Resources: digests, fetching, the verification check. */
export { checkRelatedResources, createHttpResourceSource, type RelatedResourceOutcome, type RelatedResourceSource } from './check';
export { digestMatches, parseDigestMultibase, parseDigestSri, type ExpectedDigest } from './digest';
