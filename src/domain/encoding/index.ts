export * from './hex';
export * from './base64';
export * from './multibase';
