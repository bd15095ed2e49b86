export { createCanonicalizer, type Canonicalizer, type CanonicalizerOptions } from './canonicalizer';
export { CanonWorkerPool, CanonJobFailure, type CanonJob, type CanonPoolOptions, type CanonPoolStats } from './canon-pool';
