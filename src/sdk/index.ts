export * from './generated';
export * from './client';
