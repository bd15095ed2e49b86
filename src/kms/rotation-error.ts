/**
 * A refused master-key rotation. Its own file so the CLI can recognise it without loading the
 * rotation code (and the services it imports) on every command.
 */
export class RotationError extends Error {}
