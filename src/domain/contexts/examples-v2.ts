/**
 * The VCDM 2.0 examples context, as W3C publishes it at https://www.w3.org/ns/credentials/examples/v2
 * (source: w3c/vc-data-model, contexts/credentials/examples/v2 at commit
 * 647f43b3242787f43dfad8ab256dcd47af155df3; VCDM 2.0 Appendix B). No npm package ships it, so its
 * bytes are committed here. The spec's examples and the W3C test suites' vectors sign under it, and a
 * verifier without it refuses every such credential as an unknown context.
 */
export const CREDENTIALS_EXAMPLES_V2_URL = 'https://www.w3.org/ns/credentials/examples/v2';

export const CREDENTIALS_EXAMPLES_V2_CONTEXT = {
  '@context': {
    '@vocab': 'https://www.w3.org/ns/credentials/examples#',
  },
} as const;
