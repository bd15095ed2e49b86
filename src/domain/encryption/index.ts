export * from './value-encryption';
