export * from './codes';
export * from './app-error';
export * from './retry-later';
export * from './details';
export * from './challenge';
