/** JWT credentials and presentations: VC-JOSE-COSE (VCDM 2.0, application/vc+jwt) and VC-JWT (VCDM 1.1), with jose. */
export { issueJwtCredential, VC_JWT_TYP, VP_JWT_TYP } from './issue';
export { envelopeJwtCredential, envelopeJwtPresentation, isJwtCredential, isJwtPresentation, VC_JWT_MEDIA_TYPE, VP_JWT_MEDIA_TYPE } from './envelope';
export { verifyJwtCredential, VC_JWT_SUITE, VC_JWT_1_1_SUITE, type JwtCredentialVerification } from './verify-credential';
export { verifyJwtPresentation, type JwtPresentationVerification } from './verify-presentation';
export { CLOCK_SKEW_SECONDS, JWS_ALGORITHM, JWS_ALGORITHMS } from './algorithms';
