export * from './calendar';
export * from './conditions';
export * from './verify-params';
