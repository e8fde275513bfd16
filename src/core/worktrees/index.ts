export * from './task-name';
export * from './task-record';
export * from './task-status';
export * from './task-review';
