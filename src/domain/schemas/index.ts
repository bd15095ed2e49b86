export * from './attribute-definitions';
export * from './schema-request';
export * from './schema-body';
export * from './subject-validator';
export * from './value-formats';
export { IssueCollector } from './issues';
export * from './dependants';
