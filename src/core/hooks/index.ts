export * from './hook-config';
export * from './hook-output';
export * from './hook-runner';
export * from './tool-hooks';
export * from './tool-names';
