/**
 * Clock skew tolerated between an issuer and this verifier: a proof `created` or a status list's
 * `validFrom` up to 5 minutes ahead of our clock still counts (and `expires` is honoured 5 minutes
 * late). Larger skew is a wrong clock or a forged date. Issuers on other machines, and instances of
 * this service behind one load balancer, never share one clock exactly.
 */
export const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;
