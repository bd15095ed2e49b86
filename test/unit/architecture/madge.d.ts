/** The part of madge 8's API the import-graph test uses (the package ships no types). */
declare module 'madge' {
  interface MadgeConfig {
    fileExtensions?: string[];
    tsConfig?: string;
    excludeRegExp?: RegExp[];
    detectiveOptions?: { ts?: { skipTypeImports?: boolean; skipAsyncImports?: boolean } };
  }
  interface MadgeResult {
    /** Module -> the modules it imports, paths relative to the common folder of the inputs. */
    obj(): Record<string, string[]>;
    circular(): string[][];
  }
  function madge(path: string | string[], config?: MadgeConfig): Promise<MadgeResult>;
  export = madge;
}
