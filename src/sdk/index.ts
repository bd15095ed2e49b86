export * from './generated';
export * from './client';
export * from './bbs-2023';
export * from './zk-age';
