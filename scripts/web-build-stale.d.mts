export declare const WEB_BUILD_INPUTS: readonly string[];
export declare function webBuildStale(root: string): string | null;
