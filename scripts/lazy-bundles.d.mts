import type { BuildOptions, Plugin } from 'esbuild';

export declare const LAZY_BUNDLES: readonly { name: string; entry: string }[];
export declare const COMMAND_BUNDLES: readonly { name: string; entry: string }[];
export declare const CLI_LAZY_BUNDLES: readonly { name: string; entry: string }[];
export declare const lazyBundlesPlugin: Plugin;
export declare const REQUIRE_ON_IMPORT: Record<string, boolean>;
export declare function lazyBundleBuilds(outdir: string, options?: BuildOptions): BuildOptions[];
export declare const NODE_PLUGINS: Plugin[];
export declare function mainBundlePlugins(eager?: boolean): Plugin[];
