import type { BuildOptions, Plugin } from 'esbuild';

export declare const LAZY_BUNDLES: readonly { name: string; entry: string }[];
export declare const COMMAND_BUNDLES: readonly { name: string; entry: string }[];
export declare const lazyBundlesPlugin: Plugin;
export declare function lazyBundleBuilds(outdir: string, options?: BuildOptions): BuildOptions[];
